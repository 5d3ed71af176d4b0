import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM, HOSTED_STT } from "./stage-presets.ts";
import { sttBaseShape } from "./stt-config.ts";
import { languageFields } from "./stt-fields.ts";
import type { ProviderDescriptor } from "./types.ts";
import { WHISPER_LANGUAGES } from "./whisper-languages.ts";

export const GroqSttConfig = z.object(sttBaseShape("whisper-large-v3-turbo", "en"));

export const groq = {
  id: "groq",
  label: "Groq",
  ...apiKeyCredentials("GROQ_API_KEY"),
  integrationKinds: ["llm", "stt"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "llama-3.3-70b-versatile" },
    models: [
      m("llama-3.3-70b-versatile", "Llama 3.3 70B"),
      m("llama-3.1-8b-instant", "Llama 3.1 8B Instant"),
      m("openai/gpt-oss-120b", "GPT-OSS 120B"),
      m("openai/gpt-oss-20b", "GPT-OSS 20B"),
      m("meta-llama/llama-4-scout-17b-16e-instruct", "Llama 4 Scout"),
      m("qwen/qwen3-32b", "Qwen3 32B"),
    ],
    price: {
      default: { input: 0.59, output: 0.79 },
      models: {
        "llama-3.3-70b-versatile": { input: 0.59, output: 0.79 },
        "llama-3.1-8b-instant": { input: 0.05, output: 0.08 },
        "openai/gpt-oss-120b": { input: 0.15, output: 0.75 },
        "openai/gpt-oss-20b": { input: 0.1, output: 0.5 },
        "meta-llama/llama-4-scout-17b-16e-instruct": { input: 0.11, output: 0.34 },
        "qwen/qwen3-32b": { input: 0.29, output: 0.59 },
      },
    },
    ...HOSTED_LLM,
  },
  stt: {
    config: GroqSttConfig,
    models: [
      m("whisper-large-v3-turbo", "Whisper large v3 turbo"),
      m("whisper-large-v3", "Whisper large v3"),
      m("distil-whisper-large-v3-en", "Distil-Whisper (English)"),
    ],
    languages: WHISPER_LANGUAGES,
    fields: languageFields(WHISPER_LANGUAGES),
    price: {
      default: 0.00067,
      models: { "whisper-large-v3-turbo": 0.00067, "whisper-large-v3": 0.00185, "distil-whisper-large-v3-en": 0.00033 },
    },
    ...HOSTED_STT,
  },
} as const satisfies ProviderDescriptor;
