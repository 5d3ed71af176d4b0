import { z } from "zod";
import { CreateAssistantBody } from "./assistants.ts";
import { byId, type StageInfo, stageLabel } from "./providers/derive.ts";
import { LanguageOption, ModelOption, SttFieldSpec } from "./providers/editor-options.ts";
import {
  CLONE_SERVICES,
  LLM_DESCRIPTORS,
  type LlmProviderId,
  providerDescriptor,
  STT_DESCRIPTORS,
  type SttProviderId,
  TtsProviderId,
} from "./providers/index.ts";
import type { SttStage } from "./providers/types.ts";

/**
 * The provider catalog: what the assistant editor offers for each provider (labels, models,
 * languages, transcriber config fields) and the response shapes of the catalog routes. Built-in
 * lists (derived from the provider descriptors) work offline; with a workspace key the server adds
 * the vendor's live list on top.
 */

// ── response shapes ─────────────────────────────────────────────────────────

export const VoiceOption = z.object({ id: z.string(), name: z.string(), isCustom: z.boolean() });
export type VoiceOption = z.infer<typeof VoiceOption>;

export const ModelsResponse = z.object({ provider: z.string(), models: z.array(ModelOption) });
export type ModelsResponse = z.infer<typeof ModelsResponse>;

export const ProviderKind = z.enum(["llm", "stt", "tts"]);
export type ProviderKind = z.infer<typeof ProviderKind>;

export const MlModelsQuery = z.object({
  type: ProviderKind.optional(),
  provider: z.string().trim().max(60).optional(),
});
export const MlModelsResponse = z.object({
  models: z.array(z.object({ value: z.string(), label: z.string(), provider: z.string(), type: ProviderKind })),
});
export type MlModelsResponse = z.infer<typeof MlModelsResponse>;

export const TranscriberResponse = z.object({
  provider: z.string(),
  models: z.array(ModelOption),
  languages: z.array(LanguageOption),
  defaults: z.record(z.string(), z.unknown()),
  fields: z.array(SttFieldSpec),
});
export type TranscriberResponse = z.infer<typeof TranscriberResponse>;

export const VoicesResponse = z.object({
  voices: z.array(VoiceOption),
  models: z.array(ModelOption),
  source: z.enum(["live", "builtin"]),
  /** Why the live list could not be fetched (the built-in list is returned instead). */
  error: z.string().optional(),
});
export type VoicesResponse = z.infer<typeof VoicesResponse>;

export const CloneService = z.enum(CLONE_SERVICES);
export type CloneService = z.infer<typeof CloneService>;

export const VoiceClone = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  language: z.string(),
  is_public: z.boolean(),
  service_name: CloneService,
  service_voice_id: z.string(),
  created_at: z.string(),
});
export type VoiceClone = z.infer<typeof VoiceClone>;

/** The text fields of POST /clones (multipart, next to 1–5 audio files). */
export const VoiceCloneFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  description: z.string().trim().max(500).default(""),
  language: z.string().trim().min(2).max(20).default("en"),
  service_name: CloneService,
});
export type VoiceCloneFields = z.infer<typeof VoiceCloneFields>;
export const VOICE_CLONE_MAX_FILES = 5;
export const VOICE_CLONE_MAX_FILE_BYTES = 10 * 1024 * 1024;

export const TtsAudioBody = z.object({
  provider: TtsProviderId,
  model: z.string().trim().min(1, "Model is required").max(200),
  voice: z.string().trim().min(1, "Voice is required").max(300),
  workspace_id: z.uuid(),
  text: z.string().trim().min(1).max(500).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  language: z.string().trim().max(20).optional(),
  settings: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])).optional(),
});
export type TtsAudioBody = z.infer<typeof TtsAudioBody>;
export const TTS_PREVIEW_TEXT = "Hello! This is how I sound. How can I help you today?";

export const AssistantTemplate = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  assistant: CreateAssistantBody,
});
export type AssistantTemplate = z.input<typeof AssistantTemplate>;

// ── the built-in catalog, derived from the provider descriptors ──────────────

export interface LlmProviderInfo extends StageInfo {
  needsBaseUrl: boolean;
}

export const LLM_CATALOG: Record<LlmProviderId, LlmProviderInfo> = byId(LLM_DESCRIPTORS, (d) => ({
  label: stageLabel(d, d.llm),
  models: [...d.llm.models],
  needsKey: d.llm.needsKey,
  needsBaseUrl: d.llm.needsBaseUrl,
  offline: d.llm.offline,
}));

export interface SttProviderInfo extends StageInfo {
  languages: LanguageOption[];
  fields: SttFieldSpec[];
  /** Shown next to the provider in the editor. */
  note?: string;
}

export const STT_CATALOG: Record<SttProviderId, SttProviderInfo> = byId(STT_DESCRIPTORS, (d) => {
  const stt: SttStage = d.stt;
  const info: SttProviderInfo = {
    label: stageLabel(d, stt),
    models: [...stt.models],
    languages: [...stt.languages],
    fields: [...stt.fields],
    needsKey: stt.needsKey,
    offline: stt.offline,
  };
  if (stt.note) info.note = stt.note;
  return info;
});

/** Which kind(s) a provider id belongs to. */
export function providerKinds(id: string): ProviderKind[] {
  const descriptor = providerDescriptor(id);
  return ProviderKind.options.filter((kind) => descriptor?.[kind] !== undefined);
}
