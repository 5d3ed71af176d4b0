import { pcmBase64 } from "../../src/providers/shared/pcm-wire.ts";
import { sine } from "../signals.ts";
import { type Connection, header, sendJson, startWsServer } from "./ws-server.ts";

/** One scripted answer of the model, given in order to each `response.create` (or caller turn). */
export type DoubleReply =
  | {
      /** The assistant says `text`: `ms` of 24 kHz pcm16 audio in 100 ms deltas, and its transcript. */
      say: string;
      ms: number;
      /**
       * The reply is still being generated when its audio has been sent: it ends only when the
       * caller speaks (`speechStarted`), as cancelled, and one more delta already in flight follows
       * the `speech_started` event, as on the real service.
       */
      untilInterrupted?: boolean;
    }
  | { call: { name: string; arguments: Record<string, unknown> } };

export interface RealtimeDoubleOptions {
  apiKey: string;
  replies: DoubleReply[];
  /** Serve as an Azure resource: the GA path `/openai/v1/realtime` and the key in an `api-key` header. */
  azure?: boolean;
}

/** The usage every response reports, so tests can check the sums. */
export const DOUBLE_USAGE = {
  total_tokens: 95,
  input_tokens: 35,
  output_tokens: 60,
  input_token_details: { text_tokens: 10, audio_tokens: 25, cached_tokens: 4 },
  output_token_details: { text_tokens: 12, audio_tokens: 48 },
};

export interface RealtimeDouble {
  baseUrl: string;
  /** Every client event of the conversation, parsed, in order. */
  readonly events: Record<string, unknown>[];
  /** The `model` query parameter and `Authorization` header of the handshake. */
  handshake(): { model: string | null; authorization: string | undefined };
  /** Resolves with the `count`-th client event of `type` (1-based), once it has arrived. */
  received(type: string, count?: number): Promise<Record<string, unknown>>;
  /** The caller starts speaking: `input_audio_buffer.speech_started` (cancelling a reply under way). */
  speechStarted(): void;
  /** The caller finished: committed, their words transcribed, and the next scripted reply. */
  callerSaid(text: string): void;
  /** Sends any server event as it is (unknown, out-of-order and `error` events). */
  send(event: Record<string, unknown>): void;
  close(): Promise<void>;
}

const RATE = 24_000;
const DELTA_MS = 100;

/**
 * A local double of the Realtime WebSocket API (GA event names) on 127.0.0.1: a bearer key on the
 * handshake, `session.created` then `session.updated` echoing `session.update`, and a scripted
 * model answering each `response.create` and each caller turn with audio deltas, transcripts,
 * function calls and `response.done` usage. `conversation.item.truncate` is answered with
 * `conversation.item.truncated`, and function outputs with `conversation.item.added`.
 */
export async function startRealtimeDouble(options: RealtimeDoubleOptions): Promise<RealtimeDouble> {
  const replies = [...options.replies];
  const events: Record<string, unknown>[] = [];
  const waiters: Array<() => void> = [];
  let connection: Connection | null = null;
  let ids = 0;
  /** The reply waiting for the caller to interrupt it. */
  let open: { responseId: string; itemId: string } | null = null;
  let userItems = 0;

  const emit = (event: Record<string, unknown>) => {
    if (connection) sendJson(connection.socket, { event_id: `event_${++ids}`, ...event });
  };

  const answer = () => {
    const reply = replies.shift();
    const responseId = `resp_${++ids}`;
    emit({ type: "response.created", response: { id: responseId, status: "in_progress" } });
    if (!reply) {
      emit({
        type: "response.done",
        response: { id: responseId, status: "completed", output: [], usage: DOUBLE_USAGE },
      });
      return;
    }
    const itemId = `item_${++ids}`;
    if ("call" in reply) {
      const callId = `call_${++ids}`;
      const args = JSON.stringify(reply.call.arguments);
      emit({
        type: "response.output_item.added",
        response_id: responseId,
        item: { id: itemId, type: "function_call" },
      });
      emit({ type: "response.function_call_arguments.delta", item_id: itemId, call_id: callId, delta: args });
      emit({
        type: "response.function_call_arguments.done",
        response_id: responseId,
        item_id: itemId,
        call_id: callId,
        name: reply.call.name,
        arguments: args,
      });
      const output = [{ type: "function_call", id: itemId, call_id: callId, name: reply.call.name, arguments: args }];
      emit({ type: "response.done", response: { id: responseId, status: "completed", output, usage: DOUBLE_USAGE } });
      return;
    }
    const audio = sine(220, reply.ms, RATE, 0.3);
    const perDelta = (RATE * DELTA_MS) / 1000;
    const words = reply.say.split(" ");
    for (let at = 0, n = 0; at < audio.length; at += perDelta, n++) {
      const part = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
      emit({ type: "response.output_audio.delta", ...part, delta: pcmBase64(audio.subarray(at, at + perDelta)) });
      const word = words[n];
      if (word) emit({ type: "response.output_audio_transcript.delta", ...part, delta: n === 0 ? word : ` ${word}` });
    }
    const rest = words.slice(Math.ceil(audio.length / perDelta)).join(" ");
    if (rest) emit({ type: "response.output_audio_transcript.delta", item_id: itemId, delta: ` ${rest}` });
    if (reply.untilInterrupted) {
      open = { responseId, itemId };
      return;
    }
    emit({ type: "response.output_audio.done", response_id: responseId, item_id: itemId });
    emit({
      type: "response.output_audio_transcript.done",
      response_id: responseId,
      item_id: itemId,
      transcript: reply.say,
    });
    const output = [{ type: "message", id: itemId, role: "assistant" }];
    emit({ type: "response.done", response: { id: responseId, status: "completed", output, usage: DOUBLE_USAGE } });
  };

  const onClientEvent = (event: Record<string, unknown>) => {
    switch (event.type) {
      case "session.update":
        emit({ type: "session.updated", session: event.session });
        break;
      case "response.create":
        answer();
        break;
      case "conversation.item.create":
        emit({ type: "conversation.item.added", item: event.item });
        break;
      case "conversation.item.truncate":
        emit({ type: "conversation.item.truncated", item_id: event.item_id, audio_end_ms: event.audio_end_ms });
        break;
      default:
        break;
    }
  };

  const server = await startWsServer({
    refuse: (upgrade) => {
      const path = options.azure ? "/openai/v1/realtime" : "/v1/realtime";
      if (upgrade.url.pathname !== path) return 404;
      const key = options.azure ? header(upgrade, "api-key") : header(upgrade, "authorization");
      return key === (options.azure ? options.apiKey : `Bearer ${options.apiKey}`) ? null : 401;
    },
    onConnection: (accepted) => {
      connection = accepted;
      emit({ type: "session.created", session: { type: "realtime" } });
    },
    onFrame: (_connection, frame) => {
      if (frame.text === null) return;
      const event = JSON.parse(frame.text) as Record<string, unknown>;
      events.push(event);
      onClientEvent(event);
      for (const wake of waiters.splice(0)) wake();
    },
  });

  return {
    baseUrl: server.baseUrl,
    events,
    handshake: () => {
      const upgrade = server.upgrades[0];
      return {
        model: upgrade?.url.searchParams.get("model") ?? null,
        authorization: upgrade ? header(upgrade, "authorization") : undefined,
      };
    },
    received: (type, count = 1) =>
      new Promise((resolve) => {
        const check = () => {
          const found = events.filter((event) => event.type === type)[count - 1];
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      }),
    speechStarted: () => {
      emit({ type: "input_audio_buffer.speech_started", audio_start_ms: 0, item_id: `user_${userItems + 1}` });
      if (!open) return;
      const { responseId, itemId } = open;
      open = null;
      // A delta the service had sent before it saw the caller's speech.
      const stray = pcmBase64(sine(220, DELTA_MS, RATE, 0.3));
      emit({ type: "response.output_audio.delta", response_id: responseId, item_id: itemId, delta: stray });
      const output = [{ type: "message", id: itemId, role: "assistant" }];
      emit({ type: "response.done", response: { id: responseId, status: "cancelled", output, usage: DOUBLE_USAGE } });
    },
    callerSaid: (text) => {
      const itemId = `user_${++userItems}`;
      emit({ type: "input_audio_buffer.speech_stopped", audio_end_ms: 1000, item_id: itemId });
      emit({ type: "input_audio_buffer.committed", item_id: itemId });
      emit({ type: "conversation.item.input_audio_transcription.delta", item_id: itemId, delta: text });
      emit({ type: "conversation.item.input_audio_transcription.completed", item_id: itemId, transcript: text });
      answer();
    },
    send: (event) => emit(event),
    close: () => server.close(),
  };
}
