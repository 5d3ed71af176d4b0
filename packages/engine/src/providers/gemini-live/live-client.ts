import { ProviderError } from "../provider-error.ts";
import { pcmBase64 } from "../shared/pcm-wire.ts";
import { emptyUsage, type RealtimeUsage } from "../shared/realtime-usage.ts";
import type { SpeechModelClient, SpeechModelClientOptions } from "../shared/speech-model-client.ts";
import type { ToolSpec } from "../types.ts";
import { LiveConnection, PROVIDER } from "./live-connection.ts";
import type { GeminiLiveSettings } from "./live-settings.ts";
import { LiveToolCalls } from "./live-tool-calls.ts";
import { LiveTurns } from "./live-turns.ts";
import type { LiveServerMessage } from "./server-messages.ts";
import { LIVE_INPUT_MIME, LIVE_INPUT_RATE, liveSetup, liveUrl } from "./setup-message.ts";
import { addLiveUsage } from "./usage.ts";

export { PROVIDER };

/** Caller audio goes out in 40 ms messages: fewer than the 20 ms frames pushed, still quick for the vendor's VAD. */
const APPEND_SAMPLES = LIVE_INPUT_RATE / 25;

export type GeminiLiveClientOptions = SpeechModelClientOptions<GeminiLiveSettings>;

/**
 * A speech-to-speech conversation over the Live API (`BidiGenerateContent` over WebSocket): `setup`
 * first, caller audio as `realtimeInput.audio` (16 kHz PCM, the engine's rate), and the model's
 * `serverContent` (24 kHz audio parts, transcripts, `interrupted`, `turnComplete`), `toolCall`s
 * answered with `toolResponse`, and `usageMetadata` per turn. The setup cannot change on an open
 * connection: a prompt change or the vendor's `goAway` moves the session to a new connection with
 * its resumption handle.
 */
export class GeminiLiveClient implements SpeechModelClient {
  readonly provider = PROVIDER;
  private connection: LiveConnection | null = null;
  private pending: Int16Array[] = [];
  private pendingSamples = 0;
  private readonly turns: LiveTurns;
  private readonly tools: LiveToolCalls;
  private usage = emptyUsage();
  private closing = false;
  /** The latest handle the vendor said the session can be resumed from (null: not yet, or not now). */
  private handle: string | null = null;
  /** The latest handle given at all: a lost connection resumes from it (a move waits for a resumable one). */
  private lastHandle: string | null = null;
  /** The live connection was lost while a move was under way: the move's outcome decides the call. */
  private lostDuringMove: ProviderError | null = null;
  /** The session must move to a new connection once it can be resumed (new setup, or the vendor going away). */
  private moveWanted = false;
  private moving = false;

  constructor(private readonly options: GeminiLiveClientOptions) {
    this.turns = new LiveTurns(options.sink);
    this.tools = new LiveToolCalls(options, (message) => this.connection?.send(message));
  }

  get totals(): RealtimeUsage {
    return { ...this.usage };
  }

  /** Opens the session; resolves on the vendor's `setupComplete`. */
  async connect(): Promise<void> {
    const connection = this.open(null);
    this.connection = connection;
    try {
      await connection.ready;
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /** Caller audio, 16-bit PCM at 16 kHz; held back while a function call waits for its answer. */
  appendAudio(pcm: Int16Array): void {
    // Some Live models close the connection (1008) on realtime input sent between a `toolCall` and
    // its `toolResponse`: the caller's audio of those moments is dropped, not queued.
    if (this.tools.waiting) return;
    this.pending.push(pcm);
    this.pendingSamples += pcm.length;
    if (this.pendingSamples < APPEND_SAMPLES) return;
    const joined = new Int16Array(this.pendingSamples);
    let at = 0;
    for (const chunk of this.pending) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    this.pending = [];
    this.pendingSamples = 0;
    this.connection?.send({ realtimeInput: { audio: { data: pcmBase64(joined), mimeType: LIVE_INPUT_MIME } } });
  }

  /**
   * Asks the model to speak now. The Live API has no "respond" message: the instruction goes in as
   * realtime text, which the model answers like a caller's turn (and which stays in its context).
   */
  respond(instructions?: string): void {
    if (instructions) this.sendText(instructions);
  }

  /**
   * Text as the caller's input: `realtimeInput.text`, which every Live model takes mid-conversation
   * (the 3.1 models accept `clientContent` only to seed history before the first turn).
   */
  sendText(text: string): void {
    this.connection?.send({ realtimeInput: { text } });
  }

  /** The new prompt and tools take effect when the session moves to a connection set up with them. */
  update(change: { instructions: string; tools: ToolSpec[] }): void {
    this.options.settings = { ...this.options.settings, ...change };
    this.moveWanted = true;
    void this.moveIfResumable();
  }

  close(): void {
    this.closing = true;
    this.tools.abortAll();
    this.connection?.close();
  }

  private open(handle: string | null): LiveConnection {
    const { apiKey, baseUrl, net, settings, sink } = this.options;
    const connection = new LiveConnection(liveUrl(apiKey, baseUrl), liveSetup(settings, handle ?? undefined), net, {
      onMessage: (message) => this.receive(connection, message),
      onMalformed: (error) => sink.onFault(error, false),
      onLost: (error) => {
        if (connection === this.connection && !this.closing) void this.recover(error);
      },
    });
    return connection;
  }

  private receive(from: LiveConnection, message: LiveServerMessage): void {
    // The old connection still delivers the turn it was generating while the new one is set up;
    // once the session has moved, anything more from it is stale.
    if (from !== this.connection) return;
    const { serverContent, toolCall, toolCallCancellation, voiceActivity, usageMetadata } = message;
    if (voiceActivity?.voiceActivityType === "ACTIVITY_START") this.turns.callerStarted(true);
    if (voiceActivity?.voiceActivityType === "ACTIVITY_END") this.turns.callerStopped();
    if (serverContent) this.turns.content(serverContent);
    if (toolCall?.functionCalls) this.tools.run(toolCall.functionCalls);
    if (toolCallCancellation?.ids) this.tools.cancel(toolCallCancellation.ids);
    if (usageMetadata) this.usage = addLiveUsage(this.usage, usageMetadata);
    const update = message.sessionResumptionUpdate;
    if (update) {
      this.handle = update.resumable && update.newHandle ? update.newHandle : null;
      if (update.newHandle) this.lastHandle = update.newHandle;
      void this.moveIfResumable();
    }
    if (message.goAway) {
      this.moveWanted = true;
      if (!this.handle) {
        const left = message.goAway.timeLeft ?? "soon";
        const text = `the vendor closes the connection in ${left}; the session moves once it can be resumed`;
        this.options.sink.onFault(new ProviderError(PROVIDER, text, true), false);
      }
      void this.moveIfResumable();
    }
  }

  /**
   * The connection dropped without a `goAway` (an internal error, the network): the session resumes
   * on a new connection from the last handle, losing at most what followed it (the turn under way
   * ends, functions still running are dropped: the resumed model has not asked for them). Without a
   * handle, or when resuming fails, the loss ends the conversation.
   */
  private async recover(lost: ProviderError): Promise<void> {
    if (this.moving) {
      this.lostDuringMove = lost;
      return;
    }
    const handle = this.lastHandle;
    if (!handle) return this.options.sink.onFault(lost, true);
    this.moving = true;
    this.tools.abortAll();
    this.turns.endTurn();
    const next = this.open(handle);
    try {
      await next.ready;
    } catch {
      next.close();
      this.moving = false;
      return this.options.sink.onFault(lost, true);
    }
    this.moving = false;
    if (this.closing) return next.close();
    this.connection = next;
    this.handle = null;
    this.options.sink.onFault(
      new ProviderError(PROVIDER, `${lost.message}; the session resumed on a new connection`, true),
      false,
    );
    void this.moveIfResumable();
  }

  /** Moves the session to a new connection set up with the current settings, from the latest handle. */
  private async moveIfResumable(): Promise<void> {
    const handle = this.handle;
    if (!this.moveWanted || this.moving || this.closing || !handle) return;
    this.moving = true;
    this.moveWanted = false;
    const next = this.open(handle);
    try {
      await next.ready;
    } catch (error) {
      this.moving = false;
      this.moveWanted = true;
      next.close();
      const reason = error instanceof Error ? error.message : String(error);
      this.options.sink.onFault(new ProviderError(PROVIDER, `could not resume the session: ${reason}`, true), false);
      if (this.lostDuringMove) this.options.sink.onFault(this.lostDuringMove, true);
      return;
    }
    this.moving = false;
    this.lostDuringMove = null;
    if (this.closing) {
      next.close();
      return;
    }
    const previous = this.connection;
    this.connection = next;
    this.handle = null;
    previous?.close();
  }
}
