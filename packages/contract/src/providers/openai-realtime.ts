import { m, v } from "./editor-options.ts";
import type { ProviderDescriptor } from "./types.ts";

/** OpenAI's speech-to-speech voices (the Realtime API's `audio.output.voice`); marin and cedar are realtime-only. */
const VOICES = ["marin", "cedar", "alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse"];

/**
 * OpenAI Realtime (issue 32): one model hears the caller's audio and answers in audio over the
 * Realtime WebSocket API. It uses the workspace's OpenAI key; it has no integration of its own.
 *
 * List prices in USD per 1M tokens, from the model pages of developers.openai.com/api/docs/models
 * (gpt-realtime, gpt-realtime-1.5, gpt-realtime-2, gpt-realtime-mini, gpt-realtime-2.1-mini),
 * read 2026-11-30. Cached input is the same price for text and audio on every model but the minis
 * (text 0.06, audio 0.30): the audio figure is kept, a call's cached tokens being mostly audio.
 * Audio tokens: the caller's audio is 1 token per 100 ms (600 a minute), the model's 1 per 50 ms
 * (1,200 a minute), per OpenAI's realtime cost guide.
 */
export const openaiRealtime = {
  id: "openai-realtime",
  label: "OpenAI Realtime",
  credentials: [],
  env: {},
  integrationKinds: [],
  realtime: {
    credentialsFrom: "openai",
    models: [
      m("gpt-realtime", "GPT Realtime"),
      m("gpt-realtime-mini", "GPT Realtime mini"),
      m("gpt-realtime-1.5", "GPT Realtime 1.5"),
      m("gpt-realtime-2", "GPT Realtime 2"),
      m("gpt-realtime-2.1-mini", "GPT Realtime 2.1 mini"),
    ],
    voices: VOICES.map((id) => v(id, id.charAt(0).toUpperCase() + id.slice(1))),
    transcriptionModels: [
      m("gpt-4o-mini-transcribe", "GPT-4o mini Transcribe"),
      m("gpt-4o-transcribe", "GPT-4o Transcribe"),
      m("whisper-1", "Whisper"),
    ],
    price: {
      default: { textInput: 4, audioInput: 32, cachedInput: 0.4, textOutput: 16, audioOutput: 64 },
      models: {
        "gpt-realtime": { textInput: 4, audioInput: 32, cachedInput: 0.4, textOutput: 16, audioOutput: 64 },
        "gpt-realtime-1.5": { textInput: 4, audioInput: 32, cachedInput: 0.4, textOutput: 16, audioOutput: 64 },
        "gpt-realtime-2": { textInput: 4, audioInput: 32, cachedInput: 0.4, textOutput: 24, audioOutput: 64 },
        "gpt-realtime-mini": { textInput: 0.6, audioInput: 10, cachedInput: 0.3, textOutput: 2.4, audioOutput: 20 },
        "gpt-realtime-2.1-mini": { textInput: 0.6, audioInput: 10, cachedInput: 0.3, textOutput: 2.4, audioOutput: 20 },
      },
    },
    audioTokensPerMinute: { input: 600, output: 1200 },
  },
} as const satisfies ProviderDescriptor;
