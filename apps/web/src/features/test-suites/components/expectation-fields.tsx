import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormHelperText from "@mui/material/FormHelperText";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { CallEndReason } from "@parley/contract";
import { Controller, useFieldArray, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { CaseForm, ExpectationForm } from "../forms/case-form.ts";
import { CaseField, useListError } from "./case-field.tsx";

/** The fields of one expectation, by its type. */
export function ExpectationFields({ index, type }: { index: number; type: ExpectationForm["type"] }) {
  const { t } = useTranslation("test-suites");
  const at = `expectations.${index}` as const;
  switch (type) {
    case "rubric":
      return (
        <CaseField
          name={`${at}.rubric`}
          label={t("expectation.rubric")}
          helperText={t("expectation.rubricHint")}
          multiline
          minRows={2}
        />
      );
    case "tool_called":
      return (
        <Stack spacing={2}>
          <CaseField name={`${at}.name`} label={t("expectation.toolName")} />
          <CaseField
            name={`${at}.arguments_schema`}
            label={t("expectation.argumentsSchema")}
            helperText={t("expectation.argumentsSchemaHint")}
            multiline
            minRows={3}
            sx={{ "& textarea": { fontFamily: "monospace" } }}
          />
        </Stack>
      );
    case "variables_collected":
      return <VariableRows index={index} />;
    case "outcome":
      return (
        <CaseField name={`${at}.outcome`} label={t("expectation.outcome")} select>
          <MenuItem value="end_call">{t("expectation.outcomes.end_call")}</MenuItem>
          <MenuItem value="transfer">{t("expectation.outcomes.transfer")}</MenuItem>
        </CaseField>
      );
    case "end_reason":
      return <EndReasons index={index} />;
    case "max_turns":
      return <CaseField name={`${at}.turns`} label={t("expectation.turns")} numeric="numeric" />;
    case "latency":
      return (
        <CaseField
          name={`${at}.p95_ms`}
          label={t("expectation.p95")}
          helperText={t("expectation.p95Hint")}
          numeric="numeric"
        />
      );
    case "max_silence":
      return (
        <CaseField
          name={`${at}.seconds`}
          label={t("expectation.silence")}
          helperText={t("expectation.silenceHint")}
          numeric="decimal"
        />
      );
  }
}

/** Variables the workflow must collect: a name, and the value it must hold if one is given. */
function VariableRows({ index }: { index: number }) {
  const { t } = useTranslation("test-suites");
  const { control } = useFormContext<CaseForm>();
  const rows = useFieldArray({ control, name: `expectations.${index}.variables` as "expectations.0.variables" });
  const listError = useListError(`expectations.${index}.variables`);
  return (
    <Stack spacing={1} role="group" aria-label={t("expectation.variables")}>
      {rows.fields.map((row, i) => (
        <Grid container spacing={1} key={row.id} sx={{ alignItems: "flex-start" }}>
          <Grid size={{ xs: 12, sm: 5 }}>
            <CaseField
              name={`expectations.${index}.variables.${i}.name`}
              label={t("expectation.variableName", { n: i + 1 })}
            />
          </Grid>
          <Grid size={{ xs: 10, sm: 6 }}>
            <CaseField
              name={`expectations.${index}.variables.${i}.value`}
              label={t("expectation.variableValue", { n: i + 1 })}
              helperText={i === 0 ? t("expectation.variableValueHint") : undefined}
            />
          </Grid>
          <Grid size={{ xs: 2, sm: 1 }}>
            <IconButton aria-label={t("expectation.removeVariable", { n: i + 1 })} onClick={() => rows.remove(i)}>
              <DeleteOutline />
            </IconButton>
          </Grid>
        </Grid>
      ))}
      {listError && <FormHelperText error>{listError}</FormHelperText>}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={() => rows.append({ name: "", value: "" })}>
          {t("expectation.addVariable")}
        </Button>
      </div>
    </Stack>
  );
}

/** End reasons, any of which passes: a select of several. */
function EndReasons({ index }: { index: number }) {
  const { t } = useTranslation("test-suites");
  const { control, clearErrors } = useFormContext<CaseForm>();
  const name = `expectations.${index}.reasons` as "expectations.0.reasons";
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          size="small"
          label={t("expectation.reasons")}
          value={Array.isArray(field.value) ? field.value : []}
          inputRef={field.ref}
          onChange={(event) => {
            const value = event.target.value as unknown;
            field.onChange(typeof value === "string" ? value.split(",") : value);
            clearErrors(name);
          }}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (chosen) => (chosen as string[]).map((reason) => t(`reasons.${reason}`)).join(", "),
            },
          }}
        >
          {CallEndReason.options.map((reason) => (
            <MenuItem key={reason} value={reason}>
              <Checkbox size="small" checked={Array.isArray(field.value) && field.value.includes(reason)} />
              <ListItemText primary={t(`reasons.${reason}`)} />
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
