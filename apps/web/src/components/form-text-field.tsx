import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";

type Props<T extends FieldValues, TOut extends FieldValues> = Omit<
  TextFieldProps,
  "name" | "value" | "onChange" | "error"
> & {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
};

/**
 * A MUI text field bound to react-hook-form; the schema's message shows as its helper text. What
 * people type takes its own direction (dir="auto"), so an English prompt reads right in an RTL page.
 */
export function FormTextField<T extends FieldValues, TOut extends FieldValues = T>({
  control,
  name,
  helperText,
  slotProps,
  ...props
}: Props<T, TOut>) {
  const htmlInput = slotProps?.htmlInput;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, ...field }, fieldState }) => (
        <TextField
          {...props}
          slotProps={{
            ...slotProps,
            htmlInput: typeof htmlInput === "function" ? htmlInput : { dir: "auto", ...htmlInput },
          }}
          {...field}
          // The input itself, not MUI's wrapping div: react-hook-form focuses the first field in error.
          inputRef={ref}
          value={field.value ?? ""}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}
