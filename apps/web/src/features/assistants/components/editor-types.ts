import type { Control, UseFormReturn } from "react-hook-form";
import type { AssistantFormInput, AssistantFormValues } from "../utils/assistant-form.ts";

/** The assistant editor's form, as every tab receives it. */
export type EditorForm = UseFormReturn<AssistantFormInput, unknown, AssistantFormValues>;
export type EditorControl = Control<AssistantFormInput, unknown, AssistantFormValues>;
