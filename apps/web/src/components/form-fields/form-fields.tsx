import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type FieldValues } from "react-hook-form";
import { FormTextField } from "../form-text-field.tsx";
import { KeyValueRows } from "../key-value-rows.tsx";
import { menuItems } from "../menu-options.tsx";
import { CheckboxesField, RadiosField, ToggleField } from "./choice-fields.tsx";
import type { FieldSpec } from "./field-spec.ts";

type Spec<T extends FieldValues> = Exclude<FieldSpec<T>, false | null | undefined>;

const keyOf = <T extends FieldValues>(spec: Spec<T>) => {
  if (spec.kind === "heading") return spec.title;
  if (spec.kind === "node" || spec.kind === "group") return spec.key;
  return spec.key ?? spec.name;
};

/**
 * A form's fields from a list: each in its grid cell (a dialog's or a card's `Grid container`),
 * bound to react-hook-form, with the schema's message under the field it is about.
 */
export function FormFields<T extends FieldValues, TOut extends FieldValues = T>(props: {
  control: Control<T, unknown, TOut>;
  fields: readonly FieldSpec<NoInfer<T>>[];
}) {
  return props.fields.map((spec) => {
    if (!spec) return null;
    if (spec.kind === "heading") {
      return (
        <Grid key={keyOf(spec)} size={12}>
          <Divider sx={{ mb: 1 }} />
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {spec.title}
          </Typography>
        </Grid>
      );
    }
    return (
      <Grid key={keyOf(spec)} size={spec.grid ?? 12}>
        <FieldControl control={props.control} spec={spec} />
      </Grid>
    );
  });
}

/** One field without its grid cell. */
function FieldControl<T extends FieldValues, TOut extends FieldValues>({
  control,
  spec,
}: {
  control: Control<T, unknown, TOut>;
  spec: Spec<T>;
}) {
  switch (spec.kind) {
    case "node":
      return spec.node;
    case "heading":
      return null;
    case "group":
      return spec.fields.map((inner) => inner && <FieldControl key={keyOf(inner)} control={control} spec={inner} />);
    case "switch":
    case "checkbox":
      return <ToggleField control={control} spec={spec} />;
    case "checkboxes":
      return <CheckboxesField control={control} spec={spec} />;
    case "radios":
      return <RadiosField control={control} spec={spec} />;
    case "keyValue":
      return (
        <Controller
          control={control}
          name={spec.name}
          render={({ field }) => <KeyValueRows rows={field.value} onChange={field.onChange} labels={spec.labels} />}
        />
      );
    case "select": {
      const { kind: _kind, grid: _grid, key: _key, options, ...text } = spec;
      return (
        <FormTextField control={control} fullWidth {...text} select>
          {menuItems(options)}
        </FormTextField>
      );
    }
    default: {
      const { kind: _kind, grid: _grid, key: _key, ...text } = spec;
      return <FormTextField control={control} fullWidth {...text} />;
    }
  }
}
