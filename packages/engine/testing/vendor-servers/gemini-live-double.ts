import { pcmBase64 } from "../../src/providers/shared/pcm-wire.ts";
import { sine } from "../signals.ts";
import { type Connection, sendJson, startWsServer } from "./ws-server.ts";

/** One scripted answer of the model, given in order to each text input and each caller turn. */
export type LiveDoubleReply =
  | {
      /** The model says `say`: `ms` of 24 kHz audio in 100 ms parts, with its output transcription. */
      say: string;
      ms: number;
      /** The turn stays open after its audio: it ends only when the caller speaks (`speechStarted`). */
      untilInterrupted?: boolean;
    }
  /** A `toolCall`; the next reply follows the client's `toolResponse`, as the model goes on by itself. */
  | { call: { name: string; args: Record<string, unknown> } };

export interface LiveDoubleOptions {
  apiKey: string;
  replies: LiveDoubleReply[];
  /** Send `voiceActivity` ACTIVITY_START / ACTIVITY_END around the caller's speech (default true). */
  voiceActivity?: boolean;
}

/** The `usageMetadata` every turn reports, so tests can check the sums. */
export const LIVE_DOUBLE_USAGE = {
  promptTokenCount: 35,
  cachedContentTokenCount: 4,
  responseTokenCount: 60,
  totalTokenCount: 95,
  promptTokensDetails: [
    { modality: "TEXT", tokenCount: 10 },
    { modality: "AUDIO", tokenCount: 25 },
  ],
  responseTokensDetails: [
    { modality: "TEXT", tokenCount: 12 },
    { modality: "AUDIO", tokenCount: 48 },
  ],
};

/** The Live API's WebSocket path, as the reference gives it. */
export const LIVE_PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
/** What the service says when it closes the socket on a key it does not accept. */
export const BAD_KEY_REASON = "API key not valid. Please pass a valid API key.";

type Message = Record<string, unknown>;

export interface LiveDouble {
  baseUrl: string;
  /** Every client message of every connection, parsed, in order. */
  readonly messages: Message[];
  /** How many connections completed their setup (a resumed session opens a second one). */
  readonly sessions: number;
  /** Resolves once `count` connections have closed (a resumed session's client closes the old one). */
  closedConnections(count: number): Promise<void>;
  /** The `key` query parameter of each handshake. */
  keys(): Array<string | null>;
  /** Resolves with the `count`-th client message (1-based) matching `match`, once it has arrived. */
  received(match: (message: Message) => boolean, count?: number): Promise<Message>;
  /** The caller starts speaking: ACTIVITY_START, and an open turn is `interrupted`, then complete. */
  speechStarted(): void;
  /** The caller said `text`: their transcription, the end of their speech, then the next reply. */
  callerSaid(text: string): void;
  /** The service will close soon: `goAway`, after which the client resumes on a new connection. */
  goAway(timeLeft: string): void;
  /** Sends any server message as it is (unknown, out-of-order and malformed ones). */
  send(message: Message | string): void;
  /** Closes the live connection with a code and reason, as the service reports its failures. */
  closeWith(code: number, reason: string): void;
  close(): Promise<void>;
}

const RATE = 24_000;
const PART_MS = 100;

/**
 * A local double of the Live API (`BidiGenerateContent`) on 127.0.0.1. The key is checked from the
 * `key` query parameter: a wrong one is accepted as a WebSocket and closed with 1008 and the
 * service's reason, as the service does. The first message must be `setup` (anything else is
 * closed with 1007), answered with `setupComplete`; a `sessionResumption` setup gets a
 * `sessionResumptionUpdate` handle after each turn, and a resumed setup must name a handle given.
 * Each `realtimeInput.text` and each caller turn is answered with the next scripted reply: audio
 * parts and output transcription, `generationComplete`, `turnComplete` with `usageMetadata`.
 */
export async function startLiveDouble(options: LiveDoubleOptions): Promise<LiveDouble> {
  const replies = [...options.replies];
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  const handles = new Set<string>();
  /** Messages per connection (the first must be `setup`); a connection refused for its key is absent. */
  const counts = new Map<Connection, number>();
  const vad = options.voiceActivity ?? true;
  let live: Connection | null = null;
  let sessions = 0;
  let closed = 0;
  let ids = 0;
  /** The turn held open until the caller speaks. */
  let open = false;
  let callerSpeaking = false;
  let resumable = false;

  const emit = (message: Message | string) => {
    if (!live) return;
    if (typeof message === "string") live.socket.send(message);
    else sendJson(live.socket, message);
  };

  const turnComplete = () => {
    emit({ serverContent: { turnComplete: true }, usageMetadata: LIVE_DOUBLE_USAGE });
    if (!resumable) return;
    const handle = `handle_${++ids}`;
    handles.add(handle);
    emit({ sessionResumptionUpdate: { newHandle: handle, resumable: true } });
  };

  const answer = () => {
    const reply = replies.shift();
    if (!reply) return turnComplete();
    if ("call" in reply) {
      emit({
        toolCall: { functionCalls: [{ id: `function-call-${++ids}`, name: reply.call.name, args: reply.call.args }] },
      });
      return;
    }
    const audio = sine(220, reply.ms, RATE, 0.3);
    const perPart = (RATE * PART_MS) / 1000;
    const words = reply.say.split(" ");
    for (let at = 0, n = 0; at < audio.length; at += perPart, n++) {
      const inlineData = { mimeType: `audio/pcm;rate=${RATE}`, data: pcmBase64(audio.subarray(at, at + perPart)) };
      emit({ serverContent: { modelTurn: { parts: [{ inlineData }] } } });
      const word = words[n];
      if (word) emit({ serverContent: { outputTranscription: { text: n === 0 ? word : ` ${word}` } } });
    }
    const rest = words.slice(Math.ceil(audio.length / perPart)).join(" ");
    if (rest) emit({ serverContent: { outputTranscription: { text: ` ${rest}` } } });
    if (reply.untilInterrupted) {
      open = true;
      return;
    }
    emit({ serverContent: { generationComplete: true } });
    turnComplete();
  };

  const onSetup = (connection: Connection, setup: Message) => {
    const resumption = setup.sessionResumption as { handle?: string } | undefined;
    if (resumption?.handle && !handles.has(resumption.handle)) {
      connection.socket.close(1007, "Request contains an invalid argument.");
      return;
    }
    live = connection;
    sessions++;
    resumable = resumption !== undefined;
    sendJson(connection.socket, { setupComplete: {} });
  };

  const onClientMessage = (connection: Connection, message: Message) => {
    const count = counts.get(connection);
    if (count === undefined) return;
    counts.set(connection, count + 1);
    if (count === 0 && !("setup" in message)) {
      connection.socket.close(1007, "Request contains an invalid argument.");
      return;
    }
    if ("setup" in message) return onSetup(connection, message.setup as Message);
    if (connection !== live) return;
    const input = message.realtimeInput as { text?: string } | undefined;
    if (typeof input?.text === "string") answer();
    if ("toolResponse" in message) answer();
  };

  const server = await startWsServer({
    refuse: (upgrade) => (upgrade.url.pathname === LIVE_PATH ? null : 404),
    onConnection: (accepted) => {
      accepted.socket.on("close", () => {
        closed++;
        for (const wake of waiters.splice(0)) wake();
      });
      if (accepted.upgrade.url.searchParams.get("key") === options.apiKey) counts.set(accepted, 0);
      else accepted.socket.close(1008, BAD_KEY_REASON);
    },
    onFrame: (connection, frame) => {
      if (frame.text === null) return;
      const message = JSON.parse(frame.text) as Message;
      messages.push(message);
      onClientMessage(connection, message);
      for (const wake of waiters.splice(0)) wake();
    },
  });

  return {
    baseUrl: server.baseUrl,
    messages,
    get sessions() {
      return sessions;
    },
    closedConnections: (count) =>
      new Promise((resolve) => {
        const check = () => (closed >= count ? resolve() : waiters.push(check));
        check();
      }),
    keys: () => server.upgrades.map((upgrade) => upgrade.url.searchParams.get("key")),
    received: (match, count = 1) =>
      new Promise((resolve) => {
        const check = () => {
          const found = messages.filter(match)[count - 1];
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      }),
    speechStarted: () => {
      callerSpeaking = true;
      if (vad) emit({ voiceActivity: { voiceActivityType: "ACTIVITY_START" } });
      if (!open) return;
      open = false;
      // "interrupted > turn_complete": no generationComplete for a cut turn.
      emit({ serverContent: { interrupted: true } });
      turnComplete();
    },
    callerSaid: (text) => {
      if (!callerSpeaking && vad) emit({ voiceActivity: { voiceActivityType: "ACTIVITY_START" } });
      callerSpeaking = false;
      emit({ serverContent: { inputTranscription: { text } } });
      if (vad) emit({ voiceActivity: { voiceActivityType: "ACTIVITY_END" } });
      answer();
    },
    goAway: (timeLeft) => emit({ goAway: { timeLeft } }),
    send: emit,
    closeWith: (code, reason) => live?.socket.close(code, reason),
    close: () => server.close(),
  };
}
