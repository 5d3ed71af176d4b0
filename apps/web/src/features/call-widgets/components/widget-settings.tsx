import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import type { WidgetEditorInput, WidgetEditorOutput } from "../forms/widget-form.ts";

type FormControl = Control<WidgetEditorInput, unknown, WidgetEditorOutput>;

export function Section(props: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper component="section" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom={!props.hint}>
        {props.title}
      </Typography>
      {props.hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {props.hint}
        </Typography>
      )}
      {props.children}
    </Paper>
  );
}

/** Name, assistant and on/off. */
export function GeneralFields({ control }: { control: FormControl }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={control} name="name" label={t("fields.name")} required fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="assistant_id"
          label={t("fields.assistant")}
          helperText={assistants.error ? t("assistantsFailed") : undefined}
          required
          select
          fullWidth
        >
          {(assistants.data ?? []).map((assistant) => (
            <MenuItem key={assistant.id} value={assistant.id}>
              {assistant.name}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={12}>
        <Controller
          control={control}
          name="enabled"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(_, checked) => field.onChange(checked)} />}
              label={t("fields.enabled")}
            />
          )}
        />
      </Grid>
    </Grid>
  );
}

/** The sites that may embed it, and its limits. */
export function AccessFields({ control }: { control: FormControl }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <FormTextField
          control={control}
          name="origins_text"
          label={t("fields.origins")}
          helperText={t("originsHelp")}
          placeholder="https://www.example.com"
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", spellCheck: false } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="limits.max_concurrent_calls"
          type="number"
          label={t("fields.maxConcurrent")}
          helperText={t("maxConcurrentHelp")}
          required
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="limits.calls_per_visitor_per_hour"
          type="number"
          label={t("fields.perVisitor")}
          helperText={t("perVisitorHelp")}
          required
          fullWidth
        />
      </Grid>
    </Grid>
  );
}
