import MenuItem from "@mui/material/MenuItem";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";

/** Chooses an assistant of the workspace, or none (""): who answers a number, or who speaks when it calls out. */
export function AssistantField<T extends FieldValues, TOut extends FieldValues>(props: {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: string;
  helperText?: string;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  return (
    <FormTextField
      control={props.control}
      name={props.name}
      label={props.label}
      helperText={assistants.error ? t("assistantsFailed") : props.helperText}
      select
      fullWidth
    >
      <MenuItem value="">
        <em>{t("none")}</em>
      </MenuItem>
      {(assistants.data ?? []).map((assistant) => (
        <MenuItem key={assistant.id} value={assistant.id}>
          {assistant.name}
        </MenuItem>
      ))}
    </FormTextField>
  );
}
