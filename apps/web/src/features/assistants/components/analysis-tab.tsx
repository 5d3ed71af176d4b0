import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import { SuccessScale } from "@parley/contract";
import type { ReactNode } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { JsonSchemaField } from "../../../components/call-analysis/json-schema-field.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import type { EditorForm } from "./editor-types.ts";
import { FormSwitch } from "./form-controls.tsx";

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Grid container spacing={2} component="section" aria-labelledby={id} sx={{ mb: 3 }}>
      <Grid size={12}>
        <Typography id={id} variant="h6" component="h2">
          {title}
        </Typography>
      </Grid>
      {children}
    </Grid>
  );
}

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
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t("intro")}
      </Typography>
      <Section id="analysis-summary-heading" title={t("summary.title")}>
        <Grid size={12}>
          <FormSwitch control={control} name="analysis.summary.enabled" label={t("summary.enable")} />
        </Grid>
        {summary && (
          <Grid size={12}>
            <FormTextField
              control={control}
              name="analysis.summary.prompt"
              label={t("summary.prompt")}
              helperText={t("summary.promptHelp")}
              multiline
              minRows={2}
              fullWidth
            />
          </Grid>
        )}
      </Section>
      <Section id="analysis-success-heading" title={t("success.title")}>
        <Grid size={12}>
          <FormSwitch control={control} name="analysis.success_evaluation.enabled" label={t("success.enable")} />
        </Grid>
        {success && (
          <>
            <Grid size={12}>
              <FormTextField
                control={control}
                name="analysis.success_evaluation.rubric"
                label={t("success.rubric")}
                helperText={t("success.rubricHelp")}
                multiline
                minRows={3}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField
                control={control}
                name="analysis.success_evaluation.scale"
                select
                label={t("success.scale")}
                fullWidth
              >
                {SuccessScale.options.map((scale) => (
                  <MenuItem key={scale} value={scale}>
                    {t(`success.scales.${scale}`)}
                  </MenuItem>
                ))}
              </FormTextField>
            </Grid>
          </>
        )}
      </Section>
      <Section id="analysis-data-heading" title={t("data.title")}>
        <Grid size={12}>
          <FormSwitch
            control={control}
            name="analysis.structured_data.enabled"
            label={t("data.enable")}
            onChanged={(on) => {
              // Text that is not yet JSON would block the save from a hidden field once extraction is off.
              if (!on && typeof form.getValues("analysis.structured_data.schema") === "string") {
                form.setValue("analysis.structured_data.schema", null, { shouldValidate: true });
              }
            }}
          />
        </Grid>
        {data && (
          <>
            <Grid size={12}>
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
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={control}
                name="analysis.structured_data.prompt"
                label={t("data.prompt")}
                helperText={t("data.promptHelp")}
                multiline
                minRows={2}
                fullWidth
              />
            </Grid>
          </>
        )}
      </Section>
    </>
  );
}
