import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";

/** A colour as #rrggbb: typed, or picked with the browser's colour picker beside it. */
export function ColorField<T extends FieldValues, TOut extends FieldValues>(props: {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: string;
  pickLabel: string;
  disabled?: boolean;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <TextField
          label={props.label}
          value={field.value ?? ""}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          disabled={props.disabled}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          fullWidth
          slotProps={{
            htmlInput: { dir: "ltr", spellCheck: false, maxLength: 7 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <input
                    type="color"
                    aria-label={props.pickLabel}
                    value={/^#[0-9a-fA-F]{6}$/.test(field.value ?? "") ? field.value : "#000000"}
                    disabled={props.disabled}
                    onChange={(event) => field.onChange(event.target.value)}
                    style={{ width: 32, height: 32, padding: 0, border: 0, background: "none", cursor: "pointer" }}
                  />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
