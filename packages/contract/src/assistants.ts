import { z } from "zod";
import { ANALYSIS_DEFAULTS, AnalysisSettings } from "./call-analysis.ts";
import { FallbackProviders, FaultPolicy } from "./fault-policy.ts";
import { stageField } from "./providers/derive.ts";
import {
  LLM_DESCRIPTORS,
  LLM_PROVIDERS,
  LlmProviderId,
  STT_DESCRIPTORS,
  STT_PROVIDERS,
  SttProviderId,
  TTS_DESCRIPTORS,
  TTS_PROVIDERS,
  TtsProviderId,
} from "./providers/index.ts";
import { LlmProviderConfig } from "./providers/llm-config.ts";
import { TtsProviderConfig } from "./providers/tts-config.ts";
import { EngineMode, REALTIME_DEFAULT_CONFIG, RealtimeConfig, realtimeDefaultConfig } from "./realtime.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * The assistant ("agent") of spec §3 with the defaults of spec §9. Per-provider config schemas and
 * defaults come from the provider descriptors (providers/), so the server (validation, new
 * assistants), the engine (behaviours) and the web app (provider change resets model and config)
 * agree on one table.
 */

/** Spec §9 assistant defaults; the default providers are the first of each stage list. */
export const ASSISTANT_DEFAULTS = {
  max_call_duration: 180,
  max_call_duration_warning_percentage: 0.8,
  timeout_seconds: 30,
  timeout_max_attempts: 3,
  background_audio_volume: 0.5,
  call_transfer_type: "cold",
  llm_provider: LLM_PROVIDERS[0],
  stt_provider: STT_PROVIDERS[0],
  tts_provider: TTS_PROVIDERS[0],
  llm_temperature: 0.7,
  llm_max_tokens: 300,
  end_of_turn_punctuation_ms: 100,
  end_of_turn_no_punctuation_ms: 1500,
  end_of_turn_number_ms: 500,
} as const;

// ── provider configs (per-provider schemas and defaults live in the descriptors) ──

export const LLM_DEFAULT_CONFIG: Record<LlmProviderId, LlmProviderConfig> = stageField(
  LLM_DESCRIPTORS,
  "llm",
  "defaults",
);

export const STT_CONFIG_SCHEMAS = stageField(STT_DESCRIPTORS, "stt", "config");

export type SttProviderConfig = z.infer<(typeof STT_CONFIG_SCHEMAS)[SttProviderId]>;

/** The full default configuration of a transcriber (what a provider change resets to). */
export function sttDefaultConfig(provider: SttProviderId): SttProviderConfig {
  return STT_CONFIG_SCHEMAS[provider].parse({});
}

export const TTS_DEFAULT_CONFIG: Record<TtsProviderId, TtsProviderConfig> = stageField(
  TTS_DESCRIPTORS,
  "tts",
  "defaults",
);

// ── behaviours ──────────────────────────────────────────────────────────────

const phoneOrSip = z
  .string()
  .trim()
  .regex(/^(\+[1-9]\d{6,14}|sips?:[^\s]+)$/, "Transfer number must be in E.164 format (+15551234567) or a sip: URI");

export const TransferMode = z.enum(["cold", "warm"]);
export type TransferMode = z.infer<typeof TransferMode>;

export const TransferDestination = z.object({
  name: z.string().trim().min(1, "Destination name is required").max(80),
  number: phoneOrSip,
  transfer_message: z.string().trim().max(500).default(""),
  /**
   * cold: the caller is connected to the destination straight away. warm: the caller waits in a
   * conference while the assistant briefs the human, then both are connected (where the phone
   * vendor has conferences; elsewhere a warm destination is transferred cold). Absent means cold.
   */
  mode: TransferMode.optional(),
  /** What the assistant tells the human on a warm transfer; empty: a summary of the call so far. */
  briefing: z.string().trim().max(1000).optional(),
});
export type TransferDestination = z.infer<typeof TransferDestination>;

/** Spec §3: a map by name or a list. Stored and returned as a list. */
export const TransferConfig = z.union([
  z.array(TransferDestination).max(50),
  z
    .record(z.string(), TransferDestination.omit({ name: true }))
    .transform((map) => Object.entries(map).map(([name, d]) => ({ name, ...d }))),
]);

export const DtmfMapping = z
  .record(z.string().regex(/^[0-9*#]$/, "DTMF keys are single digits 0-9, * or #"), z.string().trim().min(1).max(300))
  .refine((m) => Object.keys(m).length <= 12, "At most 12 DTMF keys");

export const BACKGROUND_AUDIO = [
  { id: "office", label: "Office ambience" },
  { id: "cafe", label: "Café murmur" },
] as const;
export const BackgroundAudioId = z.enum(["office", "cafe"]);

export const FirstSpeaker = z.enum(["assistant", "user"]);
export const InterruptionSensitivity = z.enum(["low", "medium", "high"]);
export const VoicemailHandler = z.enum(["hangup", "leave_message"]);

/** Every field a caller may write; the server and the editor validate with it. */
export const AssistantFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(120),
  first_message: z.string().trim().max(1000).default("Hello! How can I help you today?"),
  first_speaker: FirstSpeaker.default("assistant"),
  system_prompt: z.string().max(20000).default("You are a helpful, concise voice assistant."),
  language: z.string().trim().min(1).max(20).default("en"),
  interruption_sensitivity: InterruptionSensitivity.default("medium"),
  /**
   * End of turn: once the caller pauses, how long to wait (from the end of their speech) when the
   * transcript ends a sentence, ends mid-phrase, or ends on a number being read out. A recogniser
   * that does not punctuate waits the interruption sensitivity's silence instead.
   */
  end_of_turn_punctuation_ms: z.number().int().min(0).max(3000).default(ASSISTANT_DEFAULTS.end_of_turn_punctuation_ms),
  end_of_turn_no_punctuation_ms: z
    .number()
    .int()
    .min(0)
    .max(5000)
    .default(ASSISTANT_DEFAULTS.end_of_turn_no_punctuation_ms),
  end_of_turn_number_ms: z.number().int().min(0).max(3000).default(ASSISTANT_DEFAULTS.end_of_turn_number_ms),
  /** End the turn at once on the transcriber's own end-of-utterance event, where it has one. */
  end_of_turn_vendor_events: z.boolean().default(true),
  llm_provider: LlmProviderId.default(ASSISTANT_DEFAULTS.llm_provider),
  llm_provider_config: LlmProviderConfig.default(LLM_DEFAULT_CONFIG[ASSISTANT_DEFAULTS.llm_provider]),
  llm_temperature: z.number().min(0).max(2).default(ASSISTANT_DEFAULTS.llm_temperature),
  llm_max_tokens: z.number().int().min(16).max(8192).default(ASSISTANT_DEFAULTS.llm_max_tokens),
  stt_provider: SttProviderId.default(ASSISTANT_DEFAULTS.stt_provider),
  stt_provider_config: z
    .record(z.string(), z.unknown())
    .default(() => sttDefaultConfig(ASSISTANT_DEFAULTS.stt_provider)),
  tts_provider: TtsProviderId.default(ASSISTANT_DEFAULTS.tts_provider),
  tts_provider_config: TtsProviderConfig.default(TTS_DEFAULT_CONFIG[ASSISTANT_DEFAULTS.tts_provider]),
  background_audio_id: BackgroundAudioId.nullable().default(null),
  background_audio_volume: z.number().min(0).max(1).default(ASSISTANT_DEFAULTS.background_audio_volume),
  call_transfer: z.boolean().default(false),
  call_transfer_type: z.enum(["cold"]).default("cold"),
  transfer_config: TransferConfig.default([]),
  dtmf_enabled: z.boolean().default(false),
  dtmf_mapping: DtmfMapping.default({}),
  end_call_function: z.boolean().default(true),
  end_call_goodbye_message: z.string().trim().max(500).default("Thank you for calling. Goodbye!"),
  end_call_phrases: z.array(z.string().trim().min(1).max(120)).max(30).default([]),
  voicemail_detection: z.boolean().default(false),
  voicemail_detection_handler: VoicemailHandler.default("hangup"),
  voicemail_message: z.string().trim().max(1000).default(""),
  max_call_duration: z
    .number()
    .int()
    .min(10)
    .max(4 * 3600)
    .default(ASSISTANT_DEFAULTS.max_call_duration),
  max_call_duration_warning_message: z
    .string()
    .trim()
    .max(500)
    .default("Just so you know, we are almost out of time for this call."),
  max_call_duration_warning_percentage: z
    .number()
    .min(0.1)
    .max(0.99)
    .default(ASSISTANT_DEFAULTS.max_call_duration_warning_percentage),
  timeout_seconds: z.number().int().min(3).max(600).default(ASSISTANT_DEFAULTS.timeout_seconds),
  timeout_message: z.string().trim().max(500).default("Are you still there?"),
  timeout_max_attempts: z.number().int().min(1).max(10).default(ASSISTANT_DEFAULTS.timeout_max_attempts),
  hippa_compliant: z.boolean().default(false),
  audio_recording: z.boolean().default(true),
  pci_compliant: z.boolean().default(false),
  /** The workflow (issue 15) its calls run, in its published version; null: the prompt alone. */
  workflow_id: z.uuid().nullable().default(null),
  /** Post-call analysis (call-analysis.ts): summary, success evaluation, structured data; all off by default. */
  analysis: AnalysisSettings.default(ANALYSIS_DEFAULTS),
  /** Backup models, transcribers and voices, tried in order when the assistant's own fails (fault-policy.ts). */
  fallback_providers: FallbackProviders.default({ llm: [], stt: [], tts: [] }),
  /** Timeouts, the spoken recovery and how a call that cannot go on ends (fault-policy.ts). */
  fault_policy: FaultPolicy.default(() => FaultPolicy.parse({})),
  /**
   * pipeline: transcriber → model → voice. realtime: one speech-to-speech model (`realtime`) hears
   * the caller and answers in audio; the pipeline fields are its fallback when it cannot connect.
   */
  engine_mode: EngineMode.default("pipeline"),
  /** The speech-to-speech model of realtime mode (realtime.ts). */
  realtime: RealtimeConfig.default(() => realtimeDefaultConfig(REALTIME_DEFAULT_CONFIG.provider)),
});
export type AssistantFields = z.infer<typeof AssistantFields>;

/** POST /agents: name required, everything else defaults (spec §9). */
export const CreateAssistantBody = AssistantFields.extend({ temp: z.boolean().default(false) });
export type CreateAssistantBody = z.input<typeof CreateAssistantBody>;

/** Each field's schema without its default, so a partial update never fills in missing fields. */
const withoutDefaults = Object.fromEntries(
  Object.entries(AssistantFields.shape).map(([key, schema]) => [
    key,
    (schema instanceof z.ZodDefault ? schema.unwrap() : schema).optional(),
  ]),
) as unknown as {
  [K in keyof typeof AssistantFields.shape]: z.ZodOptional<z.ZodType<z.output<(typeof AssistantFields.shape)[K]>>>;
};

/** PATCH /agents/{id}: any subset, no defaults filled in. */
export const UpdateAssistantBody = z.object(withoutDefaults);
export type UpdateAssistantBody = z.input<typeof UpdateAssistantBody>;

export const Assistant = AssistantFields.extend({
  id: z.string(),
  temp: z.boolean(),
  stt_provider_config: z.record(z.string(), z.unknown()),
  transfer_config: z.array(TransferDestination),
  ...timestamps,
});
export type Assistant = z.infer<typeof Assistant>;

/**
 * HIPAA compliance forbids keeping call audio (spec §4): recording is forced off. The server applies
 * it on every save and the editor on every change, so both agree.
 */
export function enforceHipaa<T extends { hippa_compliant?: boolean; audio_recording?: boolean }>(fields: T): T {
  return fields.hippa_compliant ? { ...fields, audio_recording: false } : fields;
}
