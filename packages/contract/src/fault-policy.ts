import { z } from "zod";
import { LlmSettings, SttSettings, TtsSettings } from "./providers/index.ts";

/** Backups a stage may fall back to, at most this many each (the main provider is tried first). */
export const MAX_FALLBACK_PROVIDERS = 3;

/**
 * Backup providers per stage, tried in order when the assistant's own provider of that stage fails
 * (connection refused, 4xx/5xx, too slow to answer, dropped mid-call). Each entry is a provider and
 * its config, checked by that provider's schema like the main one.
 */
export const FallbackProviders = z.object({
  llm: z.array(LlmSettings).max(MAX_FALLBACK_PROVIDERS).default([]),
  stt: z.array(SttSettings).max(MAX_FALLBACK_PROVIDERS).default([]),
  tts: z.array(TtsSettings).max(MAX_FALLBACK_PROVIDERS).default([]),
});
export type FallbackProviders = z.infer<typeof FallbackProviders>;

/** What a call does once a stage has failed past its retries and backups. */
export const FaultGiveUp = z.enum(["goodbye", "transfer"]);
export type FaultGiveUp = z.infer<typeof FaultGiveUp>;

export const FAULT_POLICY_DEFAULTS = {
  first_token_timeout_ms: 3000,
  first_audio_timeout_ms: 2000,
  tool_timeout_ms: 10_000,
  transcriber_silence_ms: 2500,
  recovery_message: "Sorry, I'm having trouble — one moment.",
  give_up: "goodbye",
  transfer_number: null,
  goodbye_message: "I'm sorry, something went wrong on our side. Please call back in a few minutes. Goodbye.",
  last_resort_voice: true,
} as const satisfies Record<string, unknown>;

/** A phone number (E.164) or a SIP address to hand the caller to when the assistant cannot go on. */
const TransferTarget = z
  .string()
  .trim()
  .regex(/^(\+[1-9]\d{6,14}|sips?:[^\s@]+@[^\s]+)$/, "Enter a number in E.164 form (+14155550100) or a sip: address");

/**
 * The fault policy of an assistant's calls: how long each stage may keep the caller waiting before
 * it counts as failed, what the assistant says while it recovers, and how the call ends when it
 * cannot. Shared by every channel (the engine's fault policy reads it).
 */
export const FaultPolicy = z
  .object({
    /** A model request with no first token by then is abandoned for a retry or the next model. */
    first_token_timeout_ms: z.number().int().min(500).max(30_000).default(FAULT_POLICY_DEFAULTS.first_token_timeout_ms),
    /** A sentence with no audio from the voice by then goes to the next voice. */
    first_audio_timeout_ms: z.number().int().min(500).max(30_000).default(FAULT_POLICY_DEFAULTS.first_audio_timeout_ms),
    /** A function, MCP tool or knowledge search that has not answered by then gives the model a tool error. */
    tool_timeout_ms: z.number().int().min(500).max(60_000).default(FAULT_POLICY_DEFAULTS.tool_timeout_ms),
    /** Speech the detector heard that the transcriber has not put into words by then counts as a silent transcriber. */
    transcriber_silence_ms: z
      .number()
      .int()
      .min(1000)
      .max(30_000)
      .default(FAULT_POLICY_DEFAULTS.transcriber_silence_ms),
    /** Said when a turn has failed and the assistant tries again. */
    recovery_message: z.string().trim().min(1).max(300).default(FAULT_POLICY_DEFAULTS.recovery_message),
    /** When nothing works: say the goodbye and hang up, or hand the caller to `transfer_number`. */
    give_up: FaultGiveUp.default(FAULT_POLICY_DEFAULTS.give_up),
    transfer_number: TransferTarget.nullable().default(FAULT_POLICY_DEFAULTS.transfer_number),
    /** Said before hanging up on a call that cannot go on (or before the transfer). */
    goodbye_message: z.string().trim().min(1).max(500).default(FAULT_POLICY_DEFAULTS.goodbye_message),
    /** When every voice fails, speak with the built-in offline voice rather than not at all. */
    last_resort_voice: z.boolean().default(FAULT_POLICY_DEFAULTS.last_resort_voice),
  })
  .refine((p) => p.give_up !== "transfer" || p.transfer_number !== null, {
    path: ["transfer_number"],
    message: "Enter the number to transfer to when the assistant cannot go on",
  });
export type FaultPolicy = z.infer<typeof FaultPolicy>;

/** The stage of a live call a fault happened in. */
export const FaultStage = z.enum(["llm", "stt", "tts", "tool"]);
export type FaultStage = z.infer<typeof FaultStage>;

/**
 * What went wrong: the vendor refused the connection or its name did not resolve, answered 4xx
 * (key, quota, model), 429 or 5xx, was too slow to start, cut its stream mid-way, sent a malformed
 * tool call, or (a transcriber) heard speech and gave no words.
 */
export const FaultKind = z.enum([
  "unreachable",
  "rejected",
  "rate_limited",
  "server_error",
  "timeout",
  "stream_cut",
  "malformed",
  "silent",
  "failed",
]);
export type FaultKind = z.infer<typeof FaultKind>;

/** What the call did about it: tried the same provider again, moved to a backup, spoke a recovery line, or gave up. */
export const FaultAction = z.enum(["retried", "fallback", "recovered", "skipped", "gave_up"]);
export type FaultAction = z.infer<typeof FaultAction>;
