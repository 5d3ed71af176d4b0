import { z } from "zod";

/**
 * The assistant ("agent") of spec §3 with the defaults of spec §9. Provider ids and per-provider
 * defaults live here so the server (validation, new assistants), the engine (behaviours) and the
 * web app (provider change resets model and config) agree on one table.
 */

export const LLM_PROVIDERS = [
  "openai",
  "anthropic",
  "google",
  "groq",
  "azure-openai",
  "deepseek",
  "mistral",
  "openrouter",
  "openai-compatible",
] as const;
export const LlmProviderId = z.enum(LLM_PROVIDERS);
export type LlmProviderId = z.infer<typeof LlmProviderId>;

export const STT_PROVIDERS = ["deepgram", "openai", "groq", "assembly-ai", "speechmatics", "hamsa", "local"] as const;
export const SttProviderId = z.enum(STT_PROVIDERS);
export type SttProviderId = z.infer<typeof SttProviderId>;

export const TTS_PROVIDERS = [
  "openai",
  "playht",
  "cartesia",
  "elevenlabs",
  "deepgram",
  "rime-ai",
  "neuphonic",
  "local",
] as const;
export const TtsProviderId = z.enum(TTS_PROVIDERS);
export type TtsProviderId = z.infer<typeof TtsProviderId>;

/** Spec §9 assistant defaults. */
export const ASSISTANT_DEFAULTS = {
  max_call_duration: 180,
  max_call_duration_warning_percentage: 0.8,
  timeout_seconds: 30,
  timeout_max_attempts: 3,
  background_audio_volume: 0.5,
  call_transfer_type: "cold",
  llm_provider: "openai",
  stt_provider: "deepgram",
  tts_provider: "openai",
  llm_temperature: 0.7,
  llm_max_tokens: 300,
} as const;

// ── language model ──────────────────────────────────────────────────────────

export const LlmProviderConfig = z.object({
  model: z.string().trim().min(1, "Model is required").max(200),
  /** OpenAI-compatible endpoints (Ollama, vLLM, LM Studio, llama.cpp) and Azure: where to send requests. */
  base_url: z.url({ protocol: /^https?$/, error: "Base URL must be an http(s) URL" }).optional(),
  /** Azure OpenAI: the deployment name and API version. */
  deployment: z.string().trim().max(200).optional(),
  api_version: z.string().trim().max(40).optional(),
});
export type LlmProviderConfig = z.infer<typeof LlmProviderConfig>;

export const LLM_DEFAULT_CONFIG: Record<LlmProviderId, LlmProviderConfig> = {
  openai: { model: "gpt-4o-mini" },
  anthropic: { model: "claude-sonnet-4-5" },
  google: { model: "gemini-2.5-flash" },
  groq: { model: "llama-3.3-70b-versatile" },
  "azure-openai": { model: "gpt-4o-mini", deployment: "gpt-4o-mini", api_version: "2024-10-21" },
  deepseek: { model: "deepseek-chat" },
  mistral: { model: "mistral-small-latest" },
  openrouter: { model: "openai/gpt-4o-mini" },
  "openai-compatible": { model: "llama3.2", base_url: "http://localhost:11434/v1" },
};

// ── speech-to-text (spec §3 fields by provider, §9 defaults) ────────────────

const language = z.string().trim().min(1).max(20);
const words = z.array(z.string().trim().min(1).max(100)).max(200);

export const DeepgramSttConfig = z.object({
  model: z.string().default("nova-3"),
  language: language.default("en"),
  detect_language: z.boolean().default(false),
  punctuate: z.boolean().default(true),
  sample_rate: z.number().int().positive().default(16000),
  numerals: z.boolean().default(false),
  filler_words: z.boolean().default(false),
  keywords: words.default([]),
  keyterms: words.default([]),
  profanity_filter: z.boolean().default(false),
});
export const OpenAiSttConfig = z.object({
  model: z.string().default("gpt-4o-mini-transcribe"),
  language: language.default("en"),
  detect_language: z.boolean().default(false),
});
export const GroqSttConfig = z.object({
  model: z.string().default("whisper-large-v3-turbo"),
  language: language.default("en"),
  detect_language: z.boolean().default(false),
});
export const AssemblyAiSttConfig = z.object({
  model: z.string().default("universal-streaming"),
  language: language.default("en"),
  detect_language: z.boolean().default(false),
  sample_rate: z.number().int().positive().default(16000),
  encoding: z.enum(["pcm_s16le", "pcm_mulaw"]).default("pcm_s16le"),
  disable_partial_transcripts: z.boolean().default(false),
  end_utterance_silence_threshold: z.number().int().min(0).max(20000).default(500),
  word_boost: words.default([]),
});
export const SpeechmaticsSttConfig = z.object({
  model: z.string().default("realtime"),
  language: language.default("auto"),
  detect_language: z.boolean().default(false),
  operating_point: z.enum(["standard", "enhanced"]).default("enhanced"),
  additional_vocab: words.default([]),
});
export const HamsaSttConfig = z.object({
  model: z.string().default("hamsa-stt"),
  language: language.default("ar"),
  detect_language: z.boolean().default(false),
});
/** The offline recogniser (pocketsphinx): per utterance, English, weak on free speech. */
export const LocalSttConfig = z.object({
  model: z.string().default("pocketsphinx-en-us"),
  language: language.default("en"),
  detect_language: z.boolean().default(false),
});

export const STT_CONFIG_SCHEMAS = {
  deepgram: DeepgramSttConfig,
  openai: OpenAiSttConfig,
  groq: GroqSttConfig,
  "assembly-ai": AssemblyAiSttConfig,
  speechmatics: SpeechmaticsSttConfig,
  hamsa: HamsaSttConfig,
  local: LocalSttConfig,
} as const satisfies Record<SttProviderId, z.ZodType>;

export type SttProviderConfig = z.infer<(typeof STT_CONFIG_SCHEMAS)[SttProviderId]>;

/** The full default configuration of a transcriber (what a provider change resets to). */
export function sttDefaultConfig(provider: SttProviderId): SttProviderConfig {
  return STT_CONFIG_SCHEMAS[provider].parse({});
}

// ── text-to-speech ──────────────────────────────────────────────────────────

export const ElevenLabsVoiceSettings = z.object({
  stability: z.number().min(0).max(1).default(0.5),
  similarity_boost: z.number().min(0).max(1).default(0.75),
  style: z.number().min(0).max(1).default(0),
  use_speaker_boost: z.boolean().default(true),
});

export const TtsProviderConfig = z.object({
  model: z.string().trim().min(1, "Model is required").max(200),
  voice: z.string().trim().min(1, "Voice is required").max(300),
  speed: z.number().min(0.25).max(4).default(1),
  language: z.string().trim().max(20).optional(),
  sampleRate: z.number().int().positive().default(16000),
  encoding: z.string().trim().max(40).optional(),
  emotion: z.string().trim().max(60).optional(),
  settings: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])).optional(),
});
export type TtsProviderConfig = z.infer<typeof TtsProviderConfig>;

export const TTS_DEFAULT_CONFIG: Record<TtsProviderId, TtsProviderConfig> = {
  openai: { model: "tts-1", voice: "alloy", speed: 1, sampleRate: 16000, encoding: "pcm", language: "en" },
  playht: {
    model: "Play3.0-mini",
    voice: "s3://voice-cloning-zero-shot/d9ff78ba-d016-47f6-b0ef-dd630f59414e/female-cs/manifest.json",
    speed: 1,
    sampleRate: 16000,
    encoding: "raw",
    language: "english",
  },
  cartesia: {
    model: "sonic-2",
    voice: "694f9389-aac1-45b6-b726-9d9369183238",
    speed: 1,
    sampleRate: 16000,
    encoding: "pcm_s16le",
    language: "en",
  },
  elevenlabs: {
    model: "eleven_flash_v2_5",
    voice: "21m00Tcm4TlvDq8ikWAM",
    speed: 1,
    sampleRate: 16000,
    encoding: "pcm_16000",
    language: "en",
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
  },
  deepgram: {
    model: "aura-2",
    voice: "aura-2-thalia-en",
    speed: 1,
    sampleRate: 16000,
    encoding: "linear16",
    language: "en",
  },
  "rime-ai": { model: "mistv2", voice: "cove", speed: 1, sampleRate: 16000, encoding: "pcm", language: "eng" },
  neuphonic: {
    model: "neu_hq",
    voice: "e564ba7e-aa8d-46a2-96a8-8dffedade48f",
    speed: 1,
    sampleRate: 16000,
    encoding: "pcm_linear",
    language: "en",
  },
  local: { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16000, encoding: "pcm_s16le", language: "en" },
};

// ── behaviours ──────────────────────────────────────────────────────────────

const phoneOrSip = z
  .string()
  .trim()
  .regex(/^(\+[1-9]\d{6,14}|sips?:[^\s]+)$/, "Transfer number must be in E.164 format (+15551234567) or a sip: URI");

export const TransferDestination = z.object({
  name: z.string().trim().min(1, "Destination name is required").max(80),
  number: phoneOrSip,
  transfer_message: z.string().trim().max(500).default(""),
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
  llm_provider: LlmProviderId.default(ASSISTANT_DEFAULTS.llm_provider),
  llm_provider_config: LlmProviderConfig.default(LLM_DEFAULT_CONFIG.openai),
  llm_temperature: z.number().min(0).max(2).default(ASSISTANT_DEFAULTS.llm_temperature),
  llm_max_tokens: z.number().int().min(16).max(8192).default(ASSISTANT_DEFAULTS.llm_max_tokens),
  stt_provider: SttProviderId.default(ASSISTANT_DEFAULTS.stt_provider),
  stt_provider_config: z.record(z.string(), z.unknown()).default(() => sttDefaultConfig("deepgram")),
  tts_provider: TtsProviderId.default(ASSISTANT_DEFAULTS.tts_provider),
  tts_provider_config: TtsProviderConfig.default(TTS_DEFAULT_CONFIG.openai),
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
  created_at: z.string(),
  updated_at: z.string(),
});
export type Assistant = z.infer<typeof Assistant>;
