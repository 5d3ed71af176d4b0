import { z } from "zod";

/**
 * The server events of the Realtime API this client acts on, as the GA interface names them
 * (`response.output_audio.delta`, `response.output_audio_transcript.delta`,
 * `conversation.item.added`). The beta interface, still served by some preview deployments, named
 * the same events `response.audio.delta`, `response.audio_transcript.delta` and
 * `conversation.item.created`: they are read as their GA names so either endpoint works.
 */
const BETA_NAMES: Record<string, string> = {
  "response.audio.delta": "response.output_audio.delta",
  "response.audio.done": "response.output_audio.done",
  "response.audio_transcript.delta": "response.output_audio_transcript.delta",
  "response.audio_transcript.done": "response.output_audio_transcript.done",
  "conversation.item.created": "conversation.item.added",
};

const tokenDetails = z
  .object({ text_tokens: z.number().optional(), audio_tokens: z.number().optional() })
  .partial()
  .passthrough();

/** `response.done`'s usage: tokens per modality, which the vendor bills at different prices. */
export const realtimeUsageSchema = z
  .object({
    total_tokens: z.number().optional(),
    input_tokens: z.number().optional(),
    output_tokens: z.number().optional(),
    input_token_details: tokenDetails.extend({ cached_tokens: z.number().optional() }).optional(),
    output_token_details: tokenDetails.optional(),
  })
  .passthrough();

const serverEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("session.created") }).passthrough(),
  z.object({ type: z.literal("session.updated") }).passthrough(),
  z.object({ type: z.literal("input_audio_buffer.speech_started"), item_id: z.string().optional() }).passthrough(),
  z.object({ type: z.literal("input_audio_buffer.speech_stopped") }).passthrough(),
  z.object({ type: z.literal("response.created"), response: z.object({ id: z.string() }).passthrough() }),
  z.object({ type: z.literal("response.output_audio.delta"), item_id: z.string(), delta: z.string() }).passthrough(),
  z.object({ type: z.literal("response.output_audio.done"), item_id: z.string() }).passthrough(),
  z
    .object({ type: z.literal("response.output_audio_transcript.delta"), item_id: z.string(), delta: z.string() })
    .passthrough(),
  z
    .object({
      type: z.literal("response.output_audio_transcript.done"),
      item_id: z.string(),
      transcript: z.string(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal("conversation.item.input_audio_transcription.delta"),
      item_id: z.string(),
      delta: z.string(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal("conversation.item.input_audio_transcription.completed"),
      item_id: z.string(),
      transcript: z.string(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal("conversation.item.input_audio_transcription.failed"),
      item_id: z.string(),
      error: z.object({ message: z.string().optional() }).passthrough().optional(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal("response.function_call_arguments.done"),
      call_id: z.string(),
      name: z.string(),
      arguments: z.string(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal("response.done"),
      response: z
        .object({
          id: z.string().optional(),
          status: z.string().optional(),
          status_details: z.unknown().optional(),
          usage: realtimeUsageSchema.nullish(),
        })
        .passthrough(),
    })
    .passthrough(),
  z.object({ type: z.literal("conversation.item.truncated"), item_id: z.string() }).passthrough(),
  z
    .object({
      type: z.literal("error"),
      error: z
        .object({
          type: z.string().optional(),
          code: z.string().nullish(),
          message: z.string().optional(),
          event_id: z.string().nullish(),
        })
        .passthrough(),
    })
    .passthrough(),
]);

export type RealtimeServerEvent = z.infer<typeof serverEventSchema>;
export type RealtimeUsageReport = z.infer<typeof realtimeUsageSchema>;

/**
 * One server event, or why it is not one this client reads: `ignored` for the many events it has
 * no use for (`rate_limits.updated`, `response.output_item.added`, event types added later), and
 * `malformed` for text that is not JSON or a known event missing the fields it must carry.
 */
export type ParsedServerEvent =
  | { kind: "event"; event: RealtimeServerEvent }
  | { kind: "ignored"; type: string }
  | { kind: "malformed"; reason: string };

const KNOWN = new Set(serverEventSchema.options.map((option) => option.shape.type.value));

export function parseServerEvent(text: string): ParsedServerEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "malformed", reason: `not JSON: ${text.slice(0, 80)}` };
  }
  if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string") {
    return { kind: "malformed", reason: "an event without a type" };
  }
  const record = value as Record<string, unknown> & { type: string };
  const type = BETA_NAMES[record.type] ?? record.type;
  if (!KNOWN.has(type as RealtimeServerEvent["type"])) return { kind: "ignored", type };
  const parsed = serverEventSchema.safeParse({ ...record, type });
  if (!parsed.success) return { kind: "malformed", reason: `${type}: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  return { kind: "event", event: parsed.data };
}
