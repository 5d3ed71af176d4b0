import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { Controller, get, type Path, useFormContext, useFormState } from "react-hook-form";
import type { CaseForm } from "../forms/case-form.ts";

/**
 * A text field of the case editor. Its complaint (the browser's check or the server's 422) shows
 * beneath it until it is edited. Numbers are typed as text with a numeric keyboard, so "Enter a
 * number" can be said instead of the browser dropping what it cannot read.
 */
export function CaseField({
  name,
  numeric,
  helperText,
  slotProps,
  ...props
}: Omit<TextFieldProps, "name" | "value" | "onChange" | "error"> & {
  name: Path<CaseForm>;
  numeric?: "numeric" | "decimal";
}) {
  const { control, clearErrors } = useFormContext<CaseForm>();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, onChange, value, ...field }, fieldState }) => (
        <TextField
          size="small"
          fullWidth
          {...props}
          {...field}
          inputRef={ref}
          value={typeof value === "string" ? value : ""}
          onChange={(event) => {
            onChange(event.target.value);
            if (fieldState.error) clearErrors(name);
          }}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
          slotProps={{
            ...slotProps,
            htmlInput: numeric ? { inputMode: numeric, dir: "ltr" } : { dir: "auto" },
          }}
        />
      )}
    />
  );
}

/** The complaint about a whole list (no script lines, no expectations), which has no one field to show it. */
export function useListError(name: string): string | undefined {
  const { control } = useFormContext<CaseForm>();
  const { errors } = useFormState({ control, name: name as Path<CaseForm> });
  const error = get(errors, name) as { message?: string; root?: { message?: string } } | undefined;
  return error?.message ?? error?.root?.message;
}
