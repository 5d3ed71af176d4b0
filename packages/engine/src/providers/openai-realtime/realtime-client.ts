import { Resampler } from "../../audio/resample.ts";
import { ProviderError } from "../provider-error.ts";
import { pcmBase64 } from "../shared/pcm-wire.ts";
import { messageText, socketError } from "../shared/socket-events.ts";
import {
  runToolCall,
  type SpeechModelClient,
  type SpeechModelClientOptions,
  type SpeechModelSink,
  type ToolOutcome,
} from "../shared/speech-model-client.ts";
import type { ToolCall, ToolSpec, WebSocketLike } from "../types.ts";
import { parseServerEvent, type RealtimeServerEvent, type RealtimeUsageReport } from "./server-events.ts";
import {
  REALTIME_RATE,
  type RealtimeSessionSettings,
  realtimeAuthHeaders,
  realtimeSessionUpdate,
  realtimeUrl,
} from "./session-update.ts";
import { addUsage, emptyUsage, type RealtimeUsage } from "./usage.ts";

export const PROVIDER = "openai-realtime";
/** The engine's audio rate: caller audio comes in and assistant audio goes out at 16 kHz. */
const ENGINE_RATE = 16_000;
/** Caller audio is sent in 50 ms appends: fewer, larger messages than the 20 ms frames pushed. */
const APPEND_SAMPLES = REALTIME_RATE / 20;
/** Connecting and configuring the session must finish within this. */
const READY_TIMEOUT_MS = 10_000;

/** What the client reports while a conversation runs: the shared sink, and each response's usage report. */
export interface RealtimeClientSink extends SpeechModelSink {
  /** One response's usage and the totals of the conversation so far. */
  onUsage?(report: RealtimeUsageReport, totals: RealtimeUsage): void;
}

export type { ToolOutcome };

export interface RealtimeClientOptions extends SpeechModelClientOptions<RealtimeSessionSettings> {
  sink: RealtimeClientSink;
}

/** One assistant audio item as received: how much audio came and the transcript generated for it. */
interface OutputItem {
  receivedSamples: number;
  audioDone: boolean;
  transcript: string;
  resampler: Resampler;
  /** Cut by the caller: later deltas of it, already in flight, are dropped. */
  truncated: boolean;
}

/**
 * A speech-to-speech conversation over the Realtime WebSocket API (GA interface): the session is
 * configured with `session.update`, caller audio is appended as pcm16 at 24 kHz, and the vendor's
 * turn detection answers with audio deltas, transcripts and function calls. A caller speaking over
 * the assistant truncates the assistant's item to what was actually played, so the model's
 * context holds only what the caller heard.
 */
export class RealtimeClient implements SpeechModelClient {
  readonly provider = PROVIDER;
  private socket: WebSocketLike | null = null;
  private readonly input = new Resampler(ENGINE_RATE, REALTIME_RATE);
  private pending: Int16Array[] = [];
  private pendingSamples = 0;
  private readonly items = new Map<string, OutputItem>();
  /** The assistant item whose audio arrived last: the one a caller's speech interrupts. */
  private speakingItem: string | null = null;
  private readonly toolRuns = new Map<string, Promise<ToolOutcome>>();
  private readonly aborts = new AbortController();
  private closing = false;
  private usage = emptyUsage();
  private readonly now: () => number;

  constructor(private readonly options: RealtimeClientOptions) {
    this.now = options.now ?? Date.now;
  }

  get totals(): RealtimeUsage {
    return { ...this.usage };
  }

  /** Opens the socket and configures the session; resolves once the vendor confirms it (`session.updated`). */
  connect(): Promise<void> {
    const open = this.options.net.openWebSocket;
    if (!open) return Promise.reject(new ProviderError(PROVIDER, "no WebSocket client to connect with", false));
    const { model, azureEndpoint } = this.options.settings;
    const url = realtimeUrl(model, this.options.baseUrl, azureEndpoint);
    const socket = open(url, { headers: realtimeAuthHeaders(this.options.apiKey, azureEndpoint) });
    this.socket = socket;
    return new Promise<void>((resolve, reject) => {
      /** The promise is settled; `live` only when it resolved, so a failed connect is reported once. */
      let ready = false;
      let live = false;
      const timer = setTimeout(() => {
        if (ready) return;
        reject(new ProviderError(PROVIDER, "timed out waiting for session.updated", true));
        this.close();
      }, READY_TIMEOUT_MS);
      const settle = (error: ProviderError | null) => {
        if (ready) return;
        ready = true;
        clearTimeout(timer);
        if (error) {
          reject(error);
          return;
        }
        live = true;
        resolve();
      };
      socket.addEventListener("open", () => this.send(realtimeSessionUpdate(this.options.settings)));
      socket.addEventListener("message", ({ data }) => {
        const parsed = parseServerEvent(messageText(data));
        if (parsed.kind === "malformed") {
          this.options.sink.onFault(new ProviderError(PROVIDER, `malformed event: ${parsed.reason}`, false), false);
          return;
        }
        if (parsed.kind === "ignored") return;
        const event = parsed.event;
        if (!ready && event.type === "error") {
          settle(vendorError(event));
          return;
        }
        if (event.type === "session.updated") settle(null);
        this.handle(event);
      });
      socket.addEventListener("error", (event) => settle(socketError(PROVIDER, event)));
      socket.addEventListener("close", ({ code, reason }) => {
        const error = new ProviderError(PROVIDER, `connection closed (${code}${reason ? `: ${reason}` : ""})`, true);
        if (!ready) settle(error);
        else if (live && !this.closing) this.options.sink.onFault(error, true);
      });
    });
  }

  /** Caller audio, 16-bit PCM at 16 kHz, any length. */
  appendAudio(pcm: Int16Array): void {
    const converted = this.input.process(pcm);
    this.pending.push(converted);
    this.pendingSamples += converted.length;
    if (this.pendingSamples < APPEND_SAMPLES) return;
    const joined = new Int16Array(this.pendingSamples);
    let at = 0;
    for (const chunk of this.pending) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    this.pending = [];
    this.pendingSamples = 0;
    this.send({ type: "input_audio_buffer.append", audio: pcmBase64(joined) });
  }

  /** Asks for a reply now (the greeting, or after typed text); `instructions` override the session's for it. */
  respond(instructions?: string): void {
    this.send({ type: "response.create", ...(instructions ? { response: { instructions } } : {}) });
  }

  /** A typed caller message, answered like a spoken one. */
  sendText(text: string): void {
    this.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
    this.respond();
  }

  /**
   * Changes the session's prompt and tools mid-call (a workflow step, a hand-off). Only those
   * fields are sent: the voice cannot change once the model has spoken, and resending it is refused.
   */
  update(change: { instructions: string; tools: ToolSpec[] }): void {
    this.options.settings = { ...this.options.settings, ...change };
    const full = realtimeSessionUpdate(this.options.settings).session as Record<string, unknown>;
    const { type, instructions, tools, tool_choice } = full;
    this.send({ type: "session.update", session: { type, instructions, tools, tool_choice } });
  }

  close(): void {
    this.closing = true;
    this.aborts.abort();
    this.socket?.close(1000, "call ended");
  }

  private send(event: Record<string, unknown>): void {
    const socket = this.socket;
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(event));
  }

  private item(itemId: string): OutputItem {
    let item = this.items.get(itemId);
    if (!item) {
      item = {
        receivedSamples: 0,
        audioDone: false,
        transcript: "",
        resampler: new Resampler(REALTIME_RATE, ENGINE_RATE),
        truncated: false,
      };
      this.items.set(itemId, item);
    }
    return item;
  }

  private handle(event: RealtimeServerEvent): void {
    const sink = this.options.sink;
    switch (event.type) {
      case "response.created":
        sink.onResponseStarted?.(event.response.id);
        break;
      case "response.output_audio.delta": {
        // Deltas can arrive for an item never announced (the client reads no output_item events),
        // and after the caller cut it: those were in flight and are never played.
        const item = this.item(event.item_id);
        if (item.truncated) break;
        const bytes = Buffer.from(event.delta, "base64");
        const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2)).slice();
        item.receivedSamples += pcm.length;
        this.speakingItem = event.item_id;
        const out = item.resampler.process(pcm);
        if (out.length > 0) sink.onAudio(event.item_id, out);
        break;
      }
      case "response.output_audio.done": {
        const item = this.item(event.item_id);
        if (item.truncated || item.audioDone) break;
        item.audioDone = true;
        const tail = item.resampler.flush();
        if (tail.length > 0) sink.onAudio(event.item_id, tail);
        sink.onAudioDone?.(event.item_id);
        break;
      }
      case "response.output_audio_transcript.delta": {
        const item = this.item(event.item_id);
        item.transcript += event.delta;
        if (!item.truncated) sink.onTranscript("assistant", item.transcript, false, event.item_id);
        break;
      }
      case "response.output_audio_transcript.done":
        this.item(event.item_id).transcript = event.transcript;
        sink.onTranscript("assistant", event.transcript, true, event.item_id);
        break;
      case "conversation.item.input_audio_transcription.delta":
        sink.onTranscript("user", event.delta, false, event.item_id);
        break;
      case "conversation.item.input_audio_transcription.completed":
        sink.onTranscript("user", event.transcript.trim(), true, event.item_id);
        break;
      case "conversation.item.input_audio_transcription.failed":
        sink.onFault(
          new ProviderError(
            PROVIDER,
            `caller transcription failed: ${event.error?.message ?? "no reason given"}`,
            true,
          ),
          false,
        );
        break;
      case "input_audio_buffer.speech_started":
        this.interrupt();
        sink.onCallerStarted?.();
        break;
      case "input_audio_buffer.speech_stopped":
        sink.onCallerStopped?.(true);
        break;
      case "response.function_call_arguments.done":
        this.runTool({ id: event.call_id, name: event.name, arguments: event.arguments });
        break;
      case "response.done":
        this.responseDone(event.response);
        break;
      case "error":
        sink.onFault(vendorError(event), false);
        break;
      default:
        break;
    }
  }

  /**
   * The caller spoke over the assistant: the vendor stops generating (`interrupt_response`), the
   * listener stops playing, and the item is truncated where its playout stopped. An item already
   * played to its end is left whole.
   */
  private interrupt(): void {
    const itemId = this.speakingItem;
    if (!itemId) return;
    this.speakingItem = null;
    const item = this.item(itemId);
    const receivedMs = Math.floor((item.receivedSamples * 1000) / REALTIME_RATE);
    const playedMs = Math.max(0, Math.floor(this.options.sink.onInterrupted(itemId)));
    if (item.audioDone && playedMs >= receivedMs) return;
    const audioEndMs = Math.min(playedMs, receivedMs);
    item.truncated = true;
    this.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: audioEndMs });
    this.options.sink.onTruncated?.(itemId, audioEndMs, item.transcript);
  }

  private runTool(call: ToolCall): void {
    const started = this.now();
    const run = async (): Promise<ToolOutcome> => {
      const outcome = await runToolCall(this.options.runTool, call, this.aborts.signal);
      this.options.sink.onToolCall?.(call, outcome, this.now() - started);
      this.send({
        type: "conversation.item.create",
        item: { type: "function_call_output", call_id: call.id, output: outcome.content },
      });
      return outcome;
    };
    this.toolRuns.set(call.id, run());
  }

  /**
   * A response ended: its usage is counted, and when it called functions the model is asked to
   * go on once every output has been given (the vendor does not answer a function's output itself).
   */
  private responseDone(response: { usage?: RealtimeUsageReport | null; output?: unknown }): void {
    if (response.usage) {
      this.usage = addUsage(this.usage, response.usage);
      this.options.sink.onUsage?.(response.usage, this.totals);
    }
    const calls = Array.isArray(response.output)
      ? response.output
          .map((out) => (out as { type?: unknown; call_id?: unknown }) ?? {})
          .filter((out) => out.type === "function_call" && typeof out.call_id === "string")
          .map((out) => out.call_id as string)
      : [];
    const runs = calls
      .map((id) => this.toolRuns.get(id))
      .filter((run): run is Promise<ToolOutcome> => run !== undefined);
    if (runs.length === 0) return;
    for (const id of calls) this.toolRuns.delete(id);
    void Promise.all(runs).then((outcomes) => {
      if (this.closing || outcomes.some((outcome) => outcome.followUp === "none")) return;
      const given = outcomes.find((outcome) => typeof outcome.followUp === "object")?.followUp;
      this.respond(typeof given === "object" ? given.instructions : undefined);
    });
  }
}

/** An `error` event as a provider error: the vendor's own server errors and rate limits may pass with a retry. */
function vendorError(event: Extract<RealtimeServerEvent, { type: "error" }>): ProviderError {
  const { type, code, message } = event.error;
  const retryable = type === "server_error" || code === "rate_limit_exceeded";
  const label = [type, code].filter(Boolean).join("/");
  return new ProviderError(PROVIDER, `${label || "error"}: ${message ?? "no message"}`, retryable);
}
