import { z } from "zod";
import {
  CreateAssistantBody,
  LLM_PROVIDERS,
  type LlmProviderId,
  STT_PROVIDERS,
  type SttProviderId,
  TTS_PROVIDERS,
  TtsProviderId,
} from "./assistants.ts";

/**
 * The provider catalog: what the assistant editor offers for each provider (labels, models,
 * languages, transcriber config fields) and the response shapes of the catalog routes. Built-in
 * lists work offline; with a workspace key the server adds the vendor's live list on top.
 */

// ── response shapes ─────────────────────────────────────────────────────────

export const ModelOption = z.object({ value: z.string(), label: z.string().optional() });
export type ModelOption = z.infer<typeof ModelOption>;

export const VoiceOption = z.object({ id: z.string(), name: z.string(), isCustom: z.boolean() });
export type VoiceOption = z.infer<typeof VoiceOption>;

export const LanguageOption = z.object({ value: z.string(), label: z.string() });
export type LanguageOption = z.infer<typeof LanguageOption>;

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

/** One transcriber setting as the editor renders it (spec §3 fields by provider). */
export const SttFieldSpec = z.object({
  name: z.string(),
  kind: z.enum(["boolean", "number", "text", "list", "select"]),
  label: z.string(),
  help: z.string().optional(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().optional(),
});
export type SttFieldSpec = z.infer<typeof SttFieldSpec>;

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

export const CLONE_SERVICES = ["elevenlabs", "cartesia"] as const;
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

// ── languages ───────────────────────────────────────────────────────────────

const LANGUAGE_NAMES: Record<string, string> = {
  auto: "Detect automatically",
  multi: "Multilingual (code-switching)",
  en: "English",
  "en-US": "English (US)",
  "en-GB": "English (UK)",
  "en-AU": "English (Australia)",
  "en-IN": "English (India)",
  ar: "Arabic",
  es: "Spanish",
  "es-419": "Spanish (Latin America)",
  fr: "French",
  de: "German",
  hi: "Hindi",
  pt: "Portuguese",
  "pt-BR": "Portuguese (Brazil)",
  it: "Italian",
  nl: "Dutch",
  ja: "Japanese",
  ko: "Korean",
  zh: "Chinese",
  cmn: "Mandarin",
  ru: "Russian",
  tr: "Turkish",
  pl: "Polish",
  uk: "Ukrainian",
  sv: "Swedish",
  da: "Danish",
  no: "Norwegian",
  id: "Indonesian",
  vi: "Vietnamese",
  ur: "Urdu",
  fa: "Persian",
};

const languages = (codes: string[]): LanguageOption[] =>
  codes.map((value) => ({ value, label: LANGUAGE_NAMES[value] ?? value }));

// ── language models ─────────────────────────────────────────────────────────

export interface LlmProviderInfo {
  label: string;
  models: ModelOption[];
  needsKey: boolean;
  needsBaseUrl: boolean;
  /** Runs without the internet (a local server such as Ollama). */
  offline: boolean;
}

const m = (value: string, label?: string): ModelOption => (label ? { value, label } : { value });

const OPENAI_MODELS = [
  m("gpt-4o-mini", "GPT-4o mini"),
  m("gpt-4o", "GPT-4o"),
  m("gpt-4.1", "GPT-4.1"),
  m("gpt-4.1-mini", "GPT-4.1 mini"),
  m("gpt-4.1-nano", "GPT-4.1 nano"),
  m("gpt-5", "GPT-5"),
  m("gpt-5-mini", "GPT-5 mini"),
  m("gpt-5-nano", "GPT-5 nano"),
];

export const LLM_CATALOG: Record<LlmProviderId, LlmProviderInfo> = {
  openai: { label: "OpenAI", models: OPENAI_MODELS, needsKey: true, needsBaseUrl: false, offline: false },
  anthropic: {
    label: "Anthropic",
    models: [
      m("claude-sonnet-4-5", "Claude Sonnet 4.5"),
      m("claude-haiku-4-5", "Claude Haiku 4.5"),
      m("claude-opus-4-1", "Claude Opus 4.1"),
      m("claude-sonnet-4-0", "Claude Sonnet 4"),
      m("claude-3-5-haiku-latest", "Claude 3.5 Haiku"),
    ],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  google: {
    label: "Google Gemini",
    models: [
      m("gemini-2.5-flash", "Gemini 2.5 Flash"),
      m("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite"),
      m("gemini-2.5-pro", "Gemini 2.5 Pro"),
      m("gemini-2.0-flash", "Gemini 2.0 Flash"),
    ],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  groq: {
    label: "Groq",
    models: [
      m("llama-3.3-70b-versatile", "Llama 3.3 70B"),
      m("llama-3.1-8b-instant", "Llama 3.1 8B Instant"),
      m("openai/gpt-oss-120b", "GPT-OSS 120B"),
      m("openai/gpt-oss-20b", "GPT-OSS 20B"),
      m("meta-llama/llama-4-scout-17b-16e-instruct", "Llama 4 Scout"),
      m("qwen/qwen3-32b", "Qwen3 32B"),
    ],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  "azure-openai": {
    label: "Azure OpenAI",
    models: [m("gpt-4o-mini", "GPT-4o mini"), m("gpt-4o", "GPT-4o"), m("gpt-4.1", "GPT-4.1"), m("gpt-4.1-mini")],
    needsKey: true,
    needsBaseUrl: true,
    offline: false,
  },
  deepseek: {
    label: "DeepSeek",
    models: [m("deepseek-chat", "DeepSeek Chat"), m("deepseek-reasoner", "DeepSeek Reasoner")],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  mistral: {
    label: "Mistral",
    models: [
      m("mistral-small-latest", "Mistral Small"),
      m("mistral-medium-latest", "Mistral Medium"),
      m("mistral-large-latest", "Mistral Large"),
      m("ministral-8b-latest", "Ministral 8B"),
    ],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  openrouter: {
    label: "OpenRouter",
    models: [
      m("openai/gpt-4o-mini", "OpenAI GPT-4o mini"),
      m("anthropic/claude-sonnet-4.5", "Anthropic Claude Sonnet 4.5"),
      m("google/gemini-2.5-flash", "Google Gemini 2.5 Flash"),
      m("meta-llama/llama-3.3-70b-instruct", "Meta Llama 3.3 70B"),
      m("deepseek/deepseek-chat", "DeepSeek Chat"),
    ],
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
  "openai-compatible": {
    label: "OpenAI-compatible server (Ollama, vLLM, LM Studio)",
    models: [m("llama3.2", "Llama 3.2"), m("llama3.1", "Llama 3.1"), m("qwen2.5", "Qwen 2.5"), m("mistral")],
    needsKey: false,
    needsBaseUrl: true,
    offline: true,
  },
};

// ── speech-to-text ──────────────────────────────────────────────────────────

export interface SttProviderInfo {
  label: string;
  models: ModelOption[];
  languages: LanguageOption[];
  fields: SttFieldSpec[];
  needsKey: boolean;
  offline: boolean;
  /** Shown next to the provider in the editor. */
  note?: string;
}

const languageField = (options: LanguageOption[]): SttFieldSpec => ({
  name: "language",
  kind: "select",
  label: "Language",
  options,
});
const detectLanguage: SttFieldSpec = {
  name: "detect_language",
  kind: "boolean",
  label: "Detect the language automatically",
};
const sampleRate: SttFieldSpec = {
  name: "sample_rate",
  kind: "number",
  label: "Sample rate (Hz)",
  min: 8000,
  max: 48000,
};
const wordList = (name: string, label: string, help: string): SttFieldSpec => ({ name, kind: "list", label, help });

const DEEPGRAM_LANGUAGES = languages([
  "en",
  "en-US",
  "en-GB",
  "en-AU",
  "en-IN",
  "multi",
  "es",
  "es-419",
  "fr",
  "de",
  "hi",
  "pt",
  "pt-BR",
  "it",
  "nl",
  "ja",
  "ko",
  "ru",
  "tr",
  "pl",
  "uk",
  "sv",
  "da",
  "no",
  "zh",
]);
const WHISPER_LANGUAGES = languages([
  "en",
  "ar",
  "es",
  "fr",
  "de",
  "hi",
  "pt",
  "it",
  "nl",
  "ja",
  "ko",
  "zh",
  "ru",
  "tr",
  "pl",
  "uk",
  "sv",
  "id",
  "vi",
  "ur",
  "fa",
]);
const ASSEMBLY_LANGUAGES = languages(["en", "es", "fr", "de", "it", "pt"]);
const SPEECHMATICS_LANGUAGES = languages([
  "auto",
  "en",
  "ar",
  "es",
  "fr",
  "de",
  "hi",
  "pt",
  "it",
  "nl",
  "ja",
  "ko",
  "cmn",
  "ru",
  "tr",
]);

export const STT_CATALOG: Record<SttProviderId, SttProviderInfo> = {
  deepgram: {
    label: "Deepgram",
    models: [m("nova-3", "Nova-3"), m("nova-2", "Nova-2"), m("nova-2-phonecall", "Nova-2 phone call"), m("base")],
    languages: DEEPGRAM_LANGUAGES,
    fields: [
      languageField(DEEPGRAM_LANGUAGES),
      detectLanguage,
      { name: "punctuate", kind: "boolean", label: "Punctuation and capitalisation" },
      sampleRate,
      { name: "numerals", kind: "boolean", label: "Write numbers as digits" },
      { name: "filler_words", kind: "boolean", label: "Keep filler words (um, uh)" },
      wordList("keywords", "Keywords", "Words to boost (Nova-2 and older)."),
      wordList("keyterms", "Key terms", "Terms and phrases to boost (Nova-3)."),
      { name: "profanity_filter", kind: "boolean", label: "Filter profanity" },
    ],
    needsKey: true,
    offline: false,
  },
  openai: {
    label: "OpenAI",
    models: [m("gpt-4o-mini-transcribe", "GPT-4o mini Transcribe"), m("gpt-4o-transcribe"), m("whisper-1", "Whisper")],
    languages: WHISPER_LANGUAGES,
    fields: [languageField(WHISPER_LANGUAGES), detectLanguage],
    needsKey: true,
    offline: false,
  },
  groq: {
    label: "Groq",
    models: [
      m("whisper-large-v3-turbo", "Whisper large v3 turbo"),
      m("whisper-large-v3", "Whisper large v3"),
      m("distil-whisper-large-v3-en", "Distil-Whisper (English)"),
    ],
    languages: WHISPER_LANGUAGES,
    fields: [languageField(WHISPER_LANGUAGES), detectLanguage],
    needsKey: true,
    offline: false,
  },
  "assembly-ai": {
    label: "AssemblyAI",
    models: [
      m("universal-streaming", "Universal-Streaming (English)"),
      m("universal-streaming-multilingual", "Universal-Streaming (multilingual)"),
    ],
    languages: ASSEMBLY_LANGUAGES,
    fields: [
      languageField(ASSEMBLY_LANGUAGES),
      detectLanguage,
      sampleRate,
      {
        name: "encoding",
        kind: "select",
        label: "Audio encoding",
        options: [
          { value: "pcm_s16le", label: "PCM 16-bit" },
          { value: "pcm_mulaw", label: "μ-law" },
        ],
      },
      { name: "disable_partial_transcripts", kind: "boolean", label: "Disable partial transcripts" },
      {
        name: "end_utterance_silence_threshold",
        kind: "number",
        label: "End-of-utterance silence (ms)",
        min: 0,
        max: 20000,
        step: 50,
      },
      wordList("word_boost", "Word boost", "Words and phrases to recognise more reliably."),
    ],
    needsKey: true,
    offline: false,
  },
  speechmatics: {
    label: "Speechmatics",
    models: [m("realtime", "Real-time")],
    languages: SPEECHMATICS_LANGUAGES,
    fields: [
      languageField(SPEECHMATICS_LANGUAGES),
      detectLanguage,
      {
        name: "operating_point",
        kind: "select",
        label: "Operating point",
        options: [
          { value: "enhanced", label: "Enhanced (more accurate)" },
          { value: "standard", label: "Standard (faster)" },
        ],
      },
      wordList("additional_vocab", "Additional vocabulary", "Names and terms the recogniser should know."),
    ],
    needsKey: true,
    offline: false,
  },
  hamsa: {
    label: "Hamsa",
    models: [m("hamsa-stt", "Hamsa")],
    languages: languages(["ar", "en"]),
    fields: [languageField(languages(["ar", "en"])), detectLanguage],
    needsKey: true,
    offline: false,
    note: "Arabic dialects and English.",
  },
  local: {
    label: "Local (offline, pocketsphinx)",
    models: [m("pocketsphinx-en-us", "PocketSphinx US English")],
    languages: languages(["en"]),
    fields: [languageField(languages(["en"])), detectLanguage],
    needsKey: false,
    offline: true,
    note: "Runs on this server with no key or network. Good for short commands; weak on free speech.",
  },
};

/** Which kind(s) a provider id belongs to. */
export function providerKinds(id: string): ProviderKind[] {
  const kinds: ProviderKind[] = [];
  if ((LLM_PROVIDERS as readonly string[]).includes(id)) kinds.push("llm");
  if ((STT_PROVIDERS as readonly string[]).includes(id)) kinds.push("stt");
  if ((TTS_PROVIDERS as readonly string[]).includes(id)) kinds.push("tts");
  return kinds;
}
