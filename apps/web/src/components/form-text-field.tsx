import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";

type Props<T extends FieldValues, TOut extends FieldValues> = Omit<
  TextFieldProps,
  "name" | "value" | "onChange" | "error"
> & {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
};

/** A MUI text field bound to react-hook-form; the schema's message shows as its helper text. */
export function FormTextField<T extends FieldValues, TOut extends FieldValues = T>({
  control,
  name,
  helperText,
  ...props
}: Props<T, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          value={field.value ?? ""}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}
