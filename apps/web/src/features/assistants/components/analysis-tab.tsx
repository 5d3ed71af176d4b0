import Typography from "@mui/material/Typography";
import { SuccessScale } from "@parley/contract";
import { Controller, type FieldPath, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { JsonSchemaField } from "../../../components/call-analysis/json-schema-field.tsx";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import type { EditorControl, EditorForm } from "./editor-types.ts";
import { type FieldList, HALF, type SettingsField, SettingsSection } from "./settings-fields.tsx";

/**
 * Post-call analysis: a summary, a success evaluation against the user's rubric, and data
 * extracted to the user's JSON schema, each switched on separately (all off by default). A part's
 * settings show once it is on.
 */
export function AnalysisTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("call-analysis");
  const { control } = form;
  const summary = useWatch({ control, name: "analysis.summary.enabled" });
  const success = useWatch({ control, name: "analysis.success_evaluation.enabled" });
  const data = useWatch({ control, name: "analysis.structured_data.enabled" });
  // The two prompts and the rubric: several lines, with a help text under each.
  const longText = (name: FieldPath<AssistantFormInput>, key: string, rows: number): SettingsField => ({
    kind: "text",
    name,
    label: t(key),
    help: t(`${key}Help`),
    rows: { min: rows },
  });
  const summaryFields: FieldList = [
    { kind: "switch", name: "analysis.summary.enabled", label: t("summary.enable") },
    summary && longText("analysis.summary.prompt", "summary.prompt", 2),
  ];
  const successFields: FieldList = [
    { kind: "switch", name: "analysis.success_evaluation.enabled", label: t("success.enable") },
    success && longText("analysis.success_evaluation.rubric", "success.rubric", 3),
    success && {
      kind: "select",
      name: "analysis.success_evaluation.scale",
      label: t("success.scale"),
      size: HALF,
      options: SuccessScale.options.map((scale) => ({ value: scale, label: t(`success.scales.${scale}`) })),
    },
  ];
  const dataFields: FieldList = [
    {
      kind: "switch",
      name: "analysis.structured_data.enabled",
      label: t("data.enable"),
      onChanged: (on) => {
        // Text that is not yet JSON would block the save from a hidden field once extraction is off.
        if (!on && typeof form.getValues("analysis.structured_data.schema") === "string") {
          form.setValue("analysis.structured_data.schema", null, { shouldValidate: true });
        }
      },
    },
    data && { kind: "custom", key: "analysis.structured_data.schema", node: <DataSchemaField control={control} /> },
    data && longText("analysis.structured_data.prompt", "data.prompt", 2),
  ];
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t("intro")}
      </Typography>
      <SettingsSection
        id="analysis-summary-heading"
        title={t("summary.title")}
        control={control}
        fields={summaryFields}
      />
      <SettingsSection
        id="analysis-success-heading"
        title={t("success.title")}
        control={control}
        fields={successFields}
      />
      <SettingsSection id="analysis-data-heading" title={t("data.title")} control={control} fields={dataFields} />
    </>
  );
}

function DataSchemaField({ control }: { control: EditorControl }) {
  return (
    <Controller
      control={control}
      name="analysis.structured_data.schema"
      render={({ field, fieldState }) => (
        <JsonSchemaField
          name={field.name}
          inputRef={field.ref}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          // Problems inside the schema show in the field's own list; this is the field's as a whole.
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
