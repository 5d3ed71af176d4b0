import type { FieldValues, UseFormReturn } from "react-hook-form";
import { FormDialog, type FormDialogProps } from "./form-dialog.tsx";
import type { FieldSpec } from "./form-fields/field-spec.ts";
import { FormFields } from "./form-fields/form-fields.tsx";

/**
 * A form dialog whose fields are a list (see FormFields) on a form made by useSchemaForm. A valid
 * submit goes to `onValid`; one that throws keeps the dialog and what was typed, and shows why.
 */
export function SchemaFormDialog<T extends FieldValues, TOut extends FieldValues>({
  form,
  fields,
  onValid,
  ...dialog
}: Omit<FormDialogProps, "onSubmit" | "busy" | "children"> & {
  form: UseFormReturn<T, unknown, TOut>;
  /** The form's type comes from `form`; the list is checked against it. */
  fields: readonly FieldSpec<NoInfer<T>>[];
  onValid: (values: TOut) => Promise<unknown>;
}) {
  return (
    <FormDialog {...dialog} onSubmit={form.handleSubmit(onValid)} busy={form.formState.isSubmitting}>
      <FormFields control={form.control} fields={fields} />
    </FormDialog>
  );
}
