import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { type LlmSettings, TEST_SUITE_LIMITS, type TestSuite, TestSuiteFields } from "@parley/contract";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useAssistants } from "../../../api/assistants.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { numberField } from "../../../components/number-field.ts";
import { applyFieldErrors } from "../../../lib/field-errors.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useCreateTestSuite, useUpdateTestSuite } from "../api/test-suites-api.ts";

/** The judge field: the assistant's model, or the model set through the API, kept as it is. */
const JUDGES = ["assistant", "kept"] as const;

const SuiteForm = z.object({
  name: TestSuiteFields.shape.name,
  description: TestSuiteFields.shape.description,
  agent_id: TestSuiteFields.shape.agent_id,
  repeat: numberField(z.number().int().min(1).max(TEST_SUITE_LIMITS.maxRepeat)),
  judge: z.enum(JUDGES),
});
type SuiteFormIn = z.input<typeof SuiteForm>;
const FIELDS = ["name", "description", "agent_id", "repeat"] as const;

/** The judge model in words: its provider and model. */
export const judgeLabel = (judge: LlmSettings) =>
  `${judge.provider} · ${"model" in judge.config ? String(judge.config.model) : ""}`;

/**
 * Creates a suite, or renames and retunes one. Without `agentId` (the workspace's Tests page) it
 * asks which assistant the suite calls; a suite keeps its assistant for good.
 */
export function SuiteDialog(props: {
  suite: TestSuite | null;
  agentId: string | null;
  onClose: () => void;
  onSaved: (suite: TestSuite) => void;
}) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const { suite } = props;
  const create = useCreateTestSuite();
  const update = useUpdateTestSuite();
  const assistants = useAssistants();
  const form = useSchemaForm(SuiteForm, {
    name: suite?.name ?? "",
    description: suite?.description ?? "",
    agent_id: suite?.agent_id ?? props.agentId ?? "",
    repeat: String(suite?.repeat ?? 1),
    judge: suite?.judge_model ? "kept" : "assistant",
  } as SuiteFormIn);
  const save = form.handleSubmit(async (values) => {
    const judge_model = values.judge === "kept" ? (suite?.judge_model ?? null) : null;
    try {
      const saved = suite
        ? await update.mutateAsync({
            id: suite.id,
            body: { name: values.name, description: values.description, repeat: values.repeat, judge_model },
          })
        : await create.mutateAsync({
            name: values.name,
            description: values.description,
            agent_id: values.agent_id,
            repeat: values.repeat,
            judge_model,
          });
      props.onSaved(saved);
    } catch (error) {
      const unplaced = applyFieldErrors(error, form.setError, FIELDS);
      if (unplaced) throw new Error(unplaced);
    }
  });
  return (
    <FormDialog
      title={suite ? t("suite.editTitle") : t("suite.createTitle")}
      onClose={props.onClose}
      onSubmit={save}
      busy={create.isPending || update.isPending}
      submitLabel={suite ? t("common.save") : t("suite.create")}
    >
      <Grid size={12}>
        <FormTextField control={form.control} name="name" label={t("suite.name")} required fullWidth autoFocus />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="description"
          label={t("suite.description")}
          helperText={t("suite.descriptionHint")}
          fullWidth
          multiline
          minRows={2}
        />
      </Grid>
      {!suite && !props.agentId && (
        <Grid size={12}>
          <Controller
            control={form.control}
            name="agent_id"
            render={({ field, fieldState }) => (
              <TextField
                select
                required
                fullWidth
                label={t("suite.assistant")}
                value={field.value ?? ""}
                onChange={field.onChange}
                inputRef={field.ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message ?? (assistants.isPending ? t("common.loading") : undefined)}
              >
                {(assistants.data ?? []).map((assistant) => (
                  <MenuItem key={assistant.id} value={assistant.id} dir="auto">
                    {assistant.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
      )}
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={form.control}
          name="repeat"
          type="number"
          label={t("suite.repeat")}
          slotProps={{ htmlInput: { min: 1, max: TEST_SUITE_LIMITS.maxRepeat, dir: "ltr" } }}
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <Controller
          control={form.control}
          name="judge"
          render={({ field }) => (
            <TextField
              select
              fullWidth
              label={t("suite.judge")}
              value={field.value}
              onChange={field.onChange}
              helperText={t("suite.judgeHint")}
            >
              <MenuItem value="assistant">{t("suite.judgeAssistant")}</MenuItem>
              {suite?.judge_model && (
                <MenuItem value="kept">{t("suite.judgeKept", { model: judgeLabel(suite.judge_model) })}</MenuItem>
              )}
            </TextField>
          )}
        />
      </Grid>
      <Grid size={12} sx={{ color: "text.secondary", typography: "body2" }}>
        {t("suite.repeatHint", { max: TEST_SUITE_LIMITS.maxRepeat })}
      </Grid>
    </FormDialog>
  );
}
