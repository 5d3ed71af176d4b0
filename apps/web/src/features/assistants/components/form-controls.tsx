import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Slider from "@mui/material/Slider";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useId } from "react";
import { type FieldPath, useController } from "react-hook-form";
import { ChipsInput } from "../../../components/chips-input.tsx";
import { menuItems } from "../../../components/menu-options.tsx";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import type { EditorControl } from "./editor-types.ts";

type Name = FieldPath<AssistantFormInput>;

/** A labelled switch bound to the editor; the helper text explains the setting. */
export function FormSwitch(props: {
  control: EditorControl;
  name: Name;
  label: string;
  helperText?: string;
  disabled?: boolean;
  /** Runs after the value changed (for rules that touch other fields). */
  onChanged?: (checked: boolean) => void;
}) {
  const helpId = useId();
  const { field } = useController({ control: props.control, name: props.name });
  return (
    <div>
      <FormControlLabel
        label={props.label}
        disabled={props.disabled}
        control={
          <Switch
            checked={Boolean(field.value)}
            onChange={(_, checked) => {
              field.onChange(checked);
              props.onChanged?.(checked);
            }}
            onBlur={field.onBlur}
            slotProps={{ input: props.helperText ? { "aria-describedby": helpId } : {} }}
          />
        }
      />
      {props.helperText && (
        <FormHelperText id={helpId} sx={{ mt: -0.5, mb: 1 }}>
          {props.helperText}
        </FormHelperText>
      )}
    </div>
  );
}

/** A number input that hands the editor numbers (or "" while empty, which the schema reports). */
export function FormNumberField({
  control,
  name,
  helperText,
  ...props
}: Omit<TextFieldProps, "name" | "value" | "onChange" | "error" | "type"> & { control: EditorControl; name: Name }) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      {...props}
      type="number"
      name={field.name}
      inputRef={field.ref}
      onBlur={field.onBlur}
      value={field.value ?? ""}
      onChange={(e) => field.onChange(e.target.value === "" ? "" : Number(e.target.value))}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message ?? helperText}
    />
  );
}

/** A labelled slider with its current value shown beside the label. */
export function FormSlider(props: {
  control: EditorControl;
  name: Name;
  label: string;
  min: number;
  max: number;
  step: number;
  format?: (value: number) => string;
  disabled?: boolean;
}) {
  const labelId = useId();
  const format = props.format ?? String;
  const { field } = useController({ control: props.control, name: props.name });
  const value = typeof field.value === "number" ? field.value : Number(field.value ?? props.min);
  return (
    <div>
      <Stack direction="row" sx={{ justifyContent: "space-between" }}>
        <Typography id={labelId} variant="body2">
          {props.label}
        </Typography>
        <Typography variant="body2" color="text.secondary" aria-hidden>
          {format(value)}
        </Typography>
      </Stack>
      <Slider
        value={value}
        min={props.min}
        max={props.max}
        step={props.step}
        disabled={props.disabled}
        onChange={(_, next) => field.onChange(next as number)}
        onBlur={field.onBlur}
        getAriaValueText={format}
        slotProps={{ input: { "aria-labelledby": labelId } }}
      />
    </div>
  );
}

/** A chips list bound to the editor (end-call phrases, keywords, vocabulary). */
export function FormChips(props: { control: EditorControl; name: Name; label: string; helperText?: string }) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  return (
    <ChipsInput
      label={props.label}
      value={Array.isArray(field.value) ? (field.value as string[]) : []}
      onChange={field.onChange}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message ?? props.helperText}
    />
  );
}

/**
 * A provider picker: choosing one hands the new id to `onSelect`, which resets the provider's
 * model and configuration to its defaults (spec §4) rather than only setting the id.
 */
export function ProviderSelect<T extends string>(props: {
  control: EditorControl;
  name: Name;
  label: string;
  options: readonly { value: T; label: string }[];
  onSelect: (value: T) => void;
  helperText?: string;
}) {
  const { field } = useController({ control: props.control, name: props.name });
  return (
    <TextField
      select
      fullWidth
      label={props.label}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ""}
      onChange={(e) => props.onSelect(e.target.value as T)}
      helperText={props.helperText}
    >
      {menuItems(props.options)}
    </TextField>
  );
}
