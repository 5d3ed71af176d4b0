import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import type { TestCase } from "@parley/contract";
import type { FormEvent } from "react";
import { Controller, FormProvider, type Path, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { KeyValueRows } from "../../../components/key-value-rows.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useSaveTestCase } from "../api/test-suites-api.ts";
import { type CaseForm, caseBodyOf, caseFormOf, type FieldProblem, formPathOf } from "../forms/case-form.ts";
import { BehaviourFields } from "./behaviour-fields.tsx";
import { CallerFields } from "./caller-fields.tsx";
import { CaseField, useListError } from "./case-field.tsx";
import { ExpectationsField } from "./expectations-field.tsx";

function Heading({ children }: { children: string }) {
  return (
    <Grid size={12}>
      <Divider sx={{ mb: 1.5 }} />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {children}
      </Typography>
    </Grid>
  );
}

/**
 * Writes or edits a case: the caller, its behaviours, the expectations and the assistant's
 * variables. Every complaint, the browser's or the server's 422, shows beside its field; those
 * without a field show above the form.
 */
export function CaseDialog(props: {
  suiteId: string;
  testCase: TestCase | null;
  onClose: () => void;
  onSaved: (testCase: TestCase) => void;
}) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const form = useForm<CaseForm>({ defaultValues: caseFormOf(props.testCase) });
  const save = useSaveTestCase(props.suiteId);

  const mark = (problems: FieldProblem[]) => {
    problems.forEach((problem, i) => {
      form.setError(
        problem.path as Path<CaseForm>,
        { type: "server", message: problem.message },
        { shouldFocus: i === 0 },
      );
    });
  };
  const check = form.handleSubmit(async (values) => {
    const { body, problems } = caseBodyOf(values, props.testCase);
    if (!body) {
      mark(problems);
      throw new Error(t("case.fixFields"));
    }
    try {
      props.onSaved(await save.mutateAsync({ id: props.testCase?.id ?? null, body }));
    } catch (error) {
      if (!(error instanceof ApiError) || error.fieldErrors.length === 0) throw error;
      mark(error.fieldErrors.map((e) => ({ path: formPathOf(e.field), message: e.message })));
      throw new Error(t("case.fixFields"));
    }
  });
  // Complaints about whole lists belong to no field that a new check would clear: start afresh each time.
  const submit = (event: FormEvent) => {
    form.clearErrors();
    return check(event);
  };

  return (
    <FormProvider {...form}>
      <FormDialog
        title={props.testCase ? t("case.editTitle") : t("case.createTitle")}
        maxWidth="md"
        onClose={props.onClose}
        onSubmit={submit}
        busy={save.isPending}
        submitLabel={props.testCase ? t("common.save") : t("case.create")}
      >
        <Grid size={12}>
          <CaseField name="name" label={t("case.name")} required autoFocus size="medium" />
        </Grid>
        <Heading>{t("caller.heading")}</Heading>
        <CallerFields original={props.testCase} />
        <Heading>{t("behaviours.heading")}</Heading>
        <BehaviourFields />
        <Heading>{t("expectation.heading")}</Heading>
        <Grid size={12}>
          <ExpectationsField />
        </Grid>
        <Heading>{t("variables.heading")}</Heading>
        <Grid size={12}>
          <VariablesField />
        </Grid>
      </FormDialog>
    </FormProvider>
  );
}

/** Values for the assistant's {{placeholders}} on the test call. */
function VariablesField() {
  const { t } = useTranslation("test-suites");
  const error = useListError("variables");
  return (
    <Controller
      name="variables"
      render={({ field }) => (
        <>
          <KeyValueRows
            rows={field.value}
            onChange={field.onChange}
            labels={{
              title: t("variables.hint"),
              key: t("variables.name"),
              value: t("variables.value"),
              add: t("variables.add"),
              remove: (n) => t("variables.remove", { n }),
            }}
          />
          {error && (
            <Typography variant="caption" color="error">
              {error}
            </Typography>
          )}
        </>
      )}
    />
  );
}
