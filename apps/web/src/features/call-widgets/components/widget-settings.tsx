import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import type { Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import type { WidgetEditorInput, WidgetEditorOutput } from "../forms/widget-form.ts";
import { useAssistantSelect } from "../hooks/use-assistant-select.ts";
import { useSquadSelect } from "../hooks/use-squad-select.ts";
import { OriginsField } from "./origins-field.tsx";

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

/** Name, assistant (or the squad that answers instead) and on/off. */
export function GeneralFields({ control }: { control: FormControl }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const assistant = useAssistantSelect<WidgetEditorInput>("assistant_id", t);
  const squad = useSquadSelect<WidgetEditorInput>("squad_id", t);
  return (
    <Grid container spacing={2}>
      <FormFields
        control={control}
        fields={[
          { name: "name", label: t("fields.name"), required: true, grid: HALF },
          { ...assistant, grid: HALF },
          { ...squad, grid: HALF },
          { kind: "switch", name: "enabled", label: t("fields.enabled") },
        ]}
      />
    </Grid>
  );
}

/** The sites that may embed it, and its limits. */
export function AccessFields({ control }: { control: FormControl }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const limit = (name: "max_concurrent_calls" | "calls_per_visitor_per_hour", key: string, required: boolean) =>
    ({
      name: `limits.${name}`,
      type: "number",
      label: t(`fields.${key}`),
      helperText: t(`${key}Help`),
      required,
      grid: HALF,
    }) as const;
  return (
    <Grid container spacing={2}>
      <FormFields
        control={control}
        fields={[
          { kind: "node", key: "origins", node: <OriginsField control={control} /> },
          // Empty is allowed: the widget then holds at most half of the workspace's calls.
          limit("max_concurrent_calls", "maxConcurrent", false),
          limit("calls_per_visitor_per_hour", "perVisitor", true),
        ]}
      />
    </Grid>
  );
}
