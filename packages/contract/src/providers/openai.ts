import { z } from "zod";
import { apiBaseUrl, apiKey, apiKeyCredentials } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM, HOSTED_STT, HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { sttBaseShape } from "./stt-config.ts";
import { languageFields } from "./stt-fields.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";
import { WHISPER_LANGUAGES } from "./whisper-languages.ts";

export const OpenAiSttConfig = z.object(sttBaseShape("gpt-4o-mini-transcribe", "en"));

const VOICES = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];

/** The Realtime API's voices (`audio.output.voice`); marin and cedar are realtime-only. */
const REALTIME_VOICES = ["marin", "cedar", "alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse"];

const GPT_REALTIME = { textInput: 4, audioInput: 32, cachedInput: 0.4, textOutput: 16, audioOutput: 64 } as const;
const GPT_REALTIME_MINI = {
  textInput: 0.6,
  audioInput: 10,
  cachedInput: 0.3,
  textOutput: 2.4,
  audioOutput: 20,
} as const;

export const openai = {
  id: "openai",
  label: "OpenAI",
  ...apiKeyCredentials("OPENAI_API_KEY"),
  // The base URL reaches the Realtime API elsewhere (a proxy, a local double); the key goes only there.
  credentials: [apiKey, apiBaseUrl],
  integrationKinds: ["llm", "stt", "tts"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "gpt-4o-mini" },
    models: [
      m("gpt-4o-mini", "GPT-4o mini"),
      m("gpt-4o", "GPT-4o"),
      m("gpt-4.1", "GPT-4.1"),
      m("gpt-4.1-mini", "GPT-4.1 mini"),
      m("gpt-4.1-nano", "GPT-4.1 nano"),
      m("gpt-5", "GPT-5"),
      m("gpt-5-mini", "GPT-5 mini"),
      m("gpt-5-nano", "GPT-5 nano"),
    ],
    price: {
      default: { input: 0.15, output: 0.6 },
      models: {
        "gpt-4o-mini": { input: 0.15, output: 0.6 },
        "gpt-4o": { input: 2.5, output: 10 },
        "gpt-4.1": { input: 2, output: 8 },
        "gpt-4.1-mini": { input: 0.4, output: 1.6 },
        "gpt-4.1-nano": { input: 0.1, output: 0.4 },
        "gpt-5": { input: 1.25, output: 10 },
        "gpt-5-mini": { input: 0.25, output: 2 },
        "gpt-5-nano": { input: 0.05, output: 0.4 },
      },
    },
    ...HOSTED_LLM,
  },
  stt: {
    config: OpenAiSttConfig,
    models: [m("gpt-4o-mini-transcribe", "GPT-4o mini Transcribe"), m("gpt-4o-transcribe"), m("whisper-1", "Whisper")],
    languages: WHISPER_LANGUAGES,
    fields: languageFields(WHISPER_LANGUAGES),
    price: {
      default: 0.003,
      models: { "gpt-4o-mini-transcribe": 0.003, "gpt-4o-transcribe": 0.006, "whisper-1": 0.006 },
    },
    ...HOSTED_STT,
  },
  tts: {
    config: TtsProviderConfig,
    defaults: { model: "tts-1", voice: "alloy", ...PIPELINE_AUDIO, encoding: "pcm", language: "en" },
    models: [m("tts-1", "TTS-1 (fast)"), m("tts-1-hd", "TTS-1 HD"), m("gpt-4o-mini-tts", "GPT-4o mini TTS")],
    voices: VOICES.map((id) => v(id, id.charAt(0).toUpperCase() + id.slice(1))),
    encodings: ["pcm", "wav", "mp3", "opus", "aac", "flac"],
    price: { default: 0.0075, models: { "tts-1": 0.0075, "tts-1-hd": 0.015, "gpt-4o-mini-tts": 0.0075 } },
    ...HOSTED_TTS,
    sharedVoices: true,
  },
  embeddings: {
    models: [
      m("text-embedding-3-small", "Text Embedding 3 Small"),
      m("text-embedding-3-large", "Text Embedding 3 Large"),
    ],
    dimensions: { "text-embedding-3-small": 1536, "text-embedding-3-large": 3072 },
    defaultModel: "text-embedding-3-small",
    price: { default: 0.02, models: { "text-embedding-3-small": 0.02, "text-embedding-3-large": 0.13 } },
  },
  /**
   * Speech to speech over the Realtime WebSocket API (issue 32). List prices per 1M tokens from the
   * model pages of developers.openai.com/api/docs/models, read 2026-11-30. Cached input costs the
   * same for text and audio except on the minis (text 0.06, audio 0.30): the audio figure is kept,
   * a call's cached tokens being mostly audio. The caller's audio is 1 token per 100 ms (600 a
   * minute), the model's 1 per 50 ms (1,200 a minute).
   */
  realtime: {
    id: "openai-realtime",
    label: "OpenAI Realtime",
    models: [
      m("gpt-realtime", "GPT Realtime"),
      m("gpt-realtime-mini", "GPT Realtime mini"),
      m("gpt-realtime-1.5", "GPT Realtime 1.5"),
      m("gpt-realtime-2", "GPT Realtime 2"),
      m("gpt-realtime-2.1-mini", "GPT Realtime 2.1 mini"),
    ],
    voices: REALTIME_VOICES.map((id) => v(id, id.charAt(0).toUpperCase() + id.slice(1))),
    transcriptionModels: [
      m("gpt-4o-mini-transcribe", "GPT-4o mini Transcribe"),
      m("gpt-4o-transcribe", "GPT-4o Transcribe"),
      m("whisper-1", "Whisper"),
    ],
    price: {
      default: GPT_REALTIME,
      models: {
        "gpt-realtime": GPT_REALTIME,
        "gpt-realtime-1.5": GPT_REALTIME,
        "gpt-realtime-2": { ...GPT_REALTIME, textOutput: 24 },
        "gpt-realtime-mini": GPT_REALTIME_MINI,
        "gpt-realtime-2.1-mini": GPT_REALTIME_MINI,
      },
    },
    audioTokensPerMinute: { input: 600, output: 1200 },
  },
} as const satisfies ProviderDescriptor;
