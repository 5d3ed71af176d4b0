import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import type { FieldPath } from "react-hook-form";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { menuItems } from "../../../components/menu-options.tsx";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import type { EditorControl } from "./editor-types.ts";
import { FormChips, FormNumberField, FormSlider, FormSwitch } from "./form-controls.tsx";

/** A field's share of the row: all of it, or part of it from the small breakpoint up (one column on a phone). */
export type FieldSize = 12 | { xs: 12; sm: 4 | 6 | 8 };

export const HALF: FieldSize = { xs: 12, sm: 6 };
export const THIRD: FieldSize = { xs: 12, sm: 4 };

interface Common {
  name: FieldPath<AssistantFormInput>;
  label: string;
  help?: string;
  size?: FieldSize;
  disabled?: boolean;
  /** Defaults to the name; a different key remounts the input (a provider's fields after a switch). */
  key?: string;
}

/** One input of an editor tab, described rather than written out, so a tab reads as its list of settings. */
export type SettingsField =
  | (Common & { kind: "text"; required?: boolean; rows?: { min: number; max?: number } })
  | (Common & { kind: "select"; options: readonly { value: string | number; label: string }[] })
  | (Common & { kind: "number"; input: { min?: number; max?: number; step?: number } })
  | (Common & { kind: "slider"; min: number; max: number; step: number; format?: (value: number) => string })
  | (Common & { kind: "switch"; onChanged?: (checked: boolean) => void })
  | (Common & { kind: "chips" })
  | { kind: "custom"; key: string; size?: FieldSize; node: ReactNode };

/** A field list may hold `false` (or nothing) where a field shows only under a condition. */
export type FieldList = readonly (SettingsField | false | null | undefined)[];

/**
 * A field's words from the locale under one prefix: `words("goodbye")` is its label,
 * `words("max", "maxHelp")` its label and help.
 */
export function wordsUnder(t: (key: string) => string, prefix: string) {
  return (label: string, help?: string) => ({
    label: t(`${prefix}.${label}`),
    help: help === undefined ? undefined : t(`${prefix}.${help}`),
  });
}

/** `0.25` as "25%", for the sliders of a share. */
export const percent = (value: number) => `${Math.round(value * 100)}%`;

function SettingsInput({
  control,
  field,
}: {
  control: EditorControl;
  field: Exclude<SettingsField, { kind: "custom" }>;
}) {
  const { name, label, help, disabled } = field;
  const bound = { control, name, label };
  switch (field.kind) {
    case "switch":
      return <FormSwitch {...bound} helperText={help} disabled={disabled} onChanged={field.onChanged} />;
    case "chips":
      return <FormChips {...bound} helperText={help} />;
    case "slider": {
      const { min, max, step, format } = field;
      return <FormSlider {...bound} min={min} max={max} step={step} format={format} disabled={disabled} />;
    }
    case "number":
      return <FormNumberField {...bound} helperText={help} fullWidth slotProps={{ htmlInput: field.input }} />;
    case "select":
      return (
        <FormTextField {...bound} select helperText={help} disabled={disabled} fullWidth>
          {menuItems(field.options)}
        </FormTextField>
      );
    case "text": {
      const { required, rows } = field;
      const lines = { multiline: rows !== undefined, minRows: rows?.min, maxRows: rows?.max };
      return (
        <FormTextField {...bound} helperText={help} required={required} disabled={disabled} {...lines} fullWidth />
      );
    }
  }
}

const keyOf = (field: SettingsField) => (field.kind === "custom" ? field.key : (field.key ?? field.name));

/** The fields as grid items, each in its own cell (inside a Grid container). */
export function SettingsFields({ control, fields }: { control: EditorControl; fields: FieldList }) {
  return (
    <>
      {fields.map((field) =>
        field ? (
          <Grid key={keyOf(field)} size={field.size ?? 12}>
            {field.kind === "custom" ? field.node : <SettingsInput control={control} field={field} />}
          </Grid>
        ) : null,
      )}
    </>
  );
}

/** A titled part of a tab: its heading names the section for screen readers, its fields follow. */
export function SettingsSection(props: { id: string; title: string; control: EditorControl; fields: FieldList }) {
  return (
    <Grid container spacing={2} component="section" aria-labelledby={props.id} sx={{ mb: 3 }}>
      <Grid size={12}>
        <Typography id={props.id} variant="h6" component="h2">
          {props.title}
        </Typography>
      </Grid>
      <SettingsFields control={props.control} fields={props.fields} />
    </Grid>
  );
}
