import { CLONE_SERVICES, VoiceCloneFields } from "@parley/contract";
import { z } from "zod";

/** The clone dialog's text fields: the contract's rules, with messages in the interface language. */
export const cloneFormSchema = (messages: { nameRequired: string; nameTooLong: string; descriptionTooLong: string }) =>
  VoiceCloneFields.extend({
    name: z.string().trim().min(1, messages.nameRequired).max(100, messages.nameTooLong),
    description: z.string().trim().max(500, messages.descriptionTooLong),
    language: z.string().trim().min(2).max(20),
  });

export type CloneFormInput = z.input<ReturnType<typeof cloneFormSchema>>;
export type CloneFormOutput = z.output<ReturnType<typeof cloneFormSchema>>;

export const CLONE_FORM_DEFAULTS: CloneFormInput = {
  name: "",
  description: "",
  language: "en",
  service_name: CLONE_SERVICES[0],
};
