import type { TFunction } from "i18next";
import type { FieldPath, FieldValues } from "react-hook-form";
import { useAssistants } from "../../../api/assistants.ts";
import type { SelectSpec } from "../../../components/form-fields/field-spec.ts";

/** The assistant a widget talks with, chosen from the workspace's; says so when they cannot be loaded. */
export function useAssistantSelect<T extends FieldValues>(
  name: FieldPath<T>,
  t: TFunction,
  help?: string,
): SelectSpec<T> {
  const assistants = useAssistants();
  return {
    kind: "select",
    name,
    label: t("fields.assistant"),
    helperText: assistants.error ? t("assistantsFailed") : help,
    required: true,
    options: (assistants.data ?? []).map((assistant) => ({ value: assistant.id, label: assistant.name })),
  };
}
