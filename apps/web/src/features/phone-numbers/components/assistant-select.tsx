import type { FieldPath, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import type { GridSize, SelectSpec } from "../../../components/form-fields/field-spec.ts";

/**
 * The assistant select of a number's forms: who answers it, or who speaks when it calls out; one of
 * the workspace's assistants, or none (""). Gives the field for a form's field list (of type T).
 */
export function useAssistantSelect<T extends FieldValues>() {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  const options = [
    { value: "", label: <em>{t("none")}</em> },
    ...(assistants.data ?? []).map((assistant) => ({ value: assistant.id, label: assistant.name })),
  ];
  return (name: FieldPath<T>, label: string, helperText?: string, grid?: GridSize): SelectSpec<T> => ({
    kind: "select",
    name,
    label,
    grid,
    options,
    helperText: assistants.error ? t("assistantsFailed") : helperText,
  });
}
