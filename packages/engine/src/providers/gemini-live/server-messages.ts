import { z } from "zod";

/**
 * The server messages of the Live API (`BidiGenerateContentServerMessage`) this client acts on.
 * Unlike the Realtime API's typed events, a message is an object whose field names the kind: `setupComplete`,
 * `serverContent`, `toolCall`, `toolCallCancellation`, `goAway`, `sessionResumptionUpdate`,
 * `voiceActivity`, with `usageMetadata` beside any of them; one message may carry several (the
 * 3.1 models send audio and transcripts in one `serverContent`).
 */
const transcriptionSchema = z.object({ text: z.string().optional(), finished: z.boolean().optional() }).passthrough();

const partSchema = z
  .object({
    text: z.string().optional(),
    /** A thought summary, never spoken or shown. */
    thought: z.boolean().optional(),
    inlineData: z.object({ mimeType: z.string().optional(), data: z.string() }).passthrough().optional(),
  })
  .passthrough();

const serverContentSchema = z
  .object({
    modelTurn: z
      .object({ parts: z.array(partSchema).optional() })
      .passthrough()
      .optional(),
    turnComplete: z.boolean().optional(),
    interrupted: z.boolean().optional(),
    generationComplete: z.boolean().optional(),
    inputTranscription: transcriptionSchema.optional(),
    outputTranscription: transcriptionSchema.optional(),
    turnCompleteReason: z.string().optional(),
  })
  .passthrough();

const modalityCountsSchema = z
  .array(z.object({ modality: z.string().optional(), tokenCount: z.number().optional() }).passthrough())
  .optional();

/** `usageMetadata`: one turn's tokens, by modality in the `…Details` lists. */
export const liveUsageSchema = z
  .object({
    promptTokenCount: z.number().optional(),
    cachedContentTokenCount: z.number().optional(),
    responseTokenCount: z.number().optional(),
    toolUsePromptTokenCount: z.number().optional(),
    thoughtsTokenCount: z.number().optional(),
    totalTokenCount: z.number().optional(),
    promptTokensDetails: modalityCountsSchema,
    cacheTokensDetails: modalityCountsSchema,
    responseTokensDetails: modalityCountsSchema,
    toolUsePromptTokensDetails: modalityCountsSchema,
  })
  .passthrough();

const serverMessageSchema = z
  .object({
    setupComplete: z.object({}).passthrough().optional(),
    serverContent: serverContentSchema.optional(),
    toolCall: z
      .object({
        functionCalls: z
          .array(
            z
              .object({
                id: z.string().optional(),
                name: z.string(),
                args: z.record(z.string(), z.unknown()).optional(),
              })
              .passthrough(),
          )
          .optional(),
      })
      .passthrough()
      .optional(),
    toolCallCancellation: z
      .object({ ids: z.array(z.string()).optional() })
      .passthrough()
      .optional(),
    goAway: z.object({ timeLeft: z.string().optional() }).passthrough().optional(),
    sessionResumptionUpdate: z
      .object({ newHandle: z.string().optional(), resumable: z.boolean().optional() })
      .passthrough()
      .optional(),
    voiceActivity: z.object({ voiceActivityType: z.string().optional() }).passthrough().optional(),
    usageMetadata: liveUsageSchema.optional(),
  })
  .passthrough();

export type LiveServerMessage = z.infer<typeof serverMessageSchema>;
export type LiveServerContent = z.infer<typeof serverContentSchema>;
export type LiveUsageMetadata = z.infer<typeof liveUsageSchema>;

const KNOWN = [
  "setupComplete",
  "serverContent",
  "toolCall",
  "toolCallCancellation",
  "goAway",
  "sessionResumptionUpdate",
  "voiceActivity",
  "usageMetadata",
] as const;

/**
 * One server message, or why it is not one this client reads: `ignored` for messages with none of
 * the fields above (a kind added later, `voiceActivityDetectionSignal`), `malformed` for text that
 * is not a JSON object or a known field of the wrong shape.
 */
export type ParsedServerMessage =
  | { kind: "message"; message: LiveServerMessage }
  | { kind: "ignored"; fields: string[] }
  | { kind: "malformed"; reason: string };

export function parseServerMessage(text: string): ParsedServerMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "malformed", reason: `not JSON: ${text.slice(0, 80)}` };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "malformed", reason: "a message that is not an object" };
  }
  const fields = Object.keys(value);
  if (!fields.some((field) => (KNOWN as readonly string[]).includes(field))) return { kind: "ignored", fields };
  const parsed = serverMessageSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: "malformed", reason: `${issue?.path.join(".") ?? "message"}: ${issue?.message ?? "invalid"}` };
  }
  return { kind: "message", message: parsed.data };
}
