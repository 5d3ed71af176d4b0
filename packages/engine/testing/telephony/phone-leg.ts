import WebSocket from "ws";
import { concatPcm } from "../../src/audio/pcm.ts";

/**
 * The far end of a phone call as a vendor's media stream carries it: a caller who speaks a given
 * utterance into the stream in real-time 20 ms frames (then silence), presses keys, and listens to
 * what Parley sends back through a playout buffer that runs on the wall clock. Marks are reported
 * when playout reaches them and a clear drops the queued audio, as the vendors document; what the
 * caller actually heard and every stream event are recorded for the test to assert on.
 *
 * The vendor's wire format is a `StreamWire`: each double supplies its own.
 */

/** A WebSocket message: text frame for a string, binary frame for a Buffer. */
export type WireMessage = string | Buffer;

/** What Parley asked for over the stream, decoded by the vendor's wire. */
export type StreamCommand =
  /** Audio to play to the caller, as 16 kHz PCM. */
  | { type: "audio"; pcm: Int16Array }
  | { type: "mark"; name: string }
  | { type: "clear" }
  /** A message the vendor accepts but the double does nothing with. */
  | { type: "ignored"; message: unknown }
  /** A message the vendor would reject (wrong stream id, bad JSON, unknown event). */
  | { type: "invalid"; reason: string; raw: string };

/** One vendor's stream protocol, from the vendor's side. */
export interface StreamWire {
  /** Sent right after the socket opens (Twilio: connected and start). */
  opening(): WireMessage[];
  /** One 20 ms frame of caller audio (320 samples of 16 kHz PCM). */
  audio(frame: Int16Array): WireMessage[];
  dtmf(digit: string): WireMessage[];
  /** Playout reached this mark. */
  markPlayed(name: string): WireMessage[];
  /** Sent after a clear, with the marks it dropped (Twilio reports them back at once). */
  cleared(droppedMarks: string[]): WireMessage[];
  /** Sent before the vendor closes the stream (hangup, transfer). */
  closing(): WireMessage[];
  decode(data: Buffer, isBinary: boolean): StreamCommand[];
}

export type LegEvent =
  | { type: "open"; at: number }
  | { type: "audio-start"; at: number }
  | { type: "mark"; name: string; phase: "queued" | "played" | "cleared"; at: number }
  | { type: "clear"; at: number; droppedMs: number; droppedMarks: string[] }
  | { type: "dtmf-sent"; digit: string; at: number }
  | { type: "speech-sent"; ms: number; at: number }
  | { type: "ignored"; message: unknown; at: number }
  | { type: "invalid"; reason: string; raw: string; at: number }
  | { type: "closed"; by: LegCloser; code: number; reason: string; at: number };

/** Who ended the stream: Parley closed the socket, the caller hung up, or the vendor ended it (transfer, API). */
export type LegCloser = "parley" | "caller" | "vendor" | "error";

export interface LegResult {
  closedBy: LegCloser;
  code: number;
  reason: string;
}

export interface PhoneLegOptions {
  /** The stream URL the markup gave (ws:// or wss://). */
  url: string;
  headers?: Record<string, string>;
  wire: StreamWire;
  /** Caller speech to play first, 16 kHz PCM. */
  speech?: Int16Array;
  /** Keys the caller presses after the speech, one every 250 ms. */
  dtmf?: readonly string[];
  /** The double's clock (ms), for event times. */
  now: () => number;
  /** Called once the stream has closed. */
  onClosed?: (result: LegResult) => void;
}

const RATE = 16_000;
const FRAME_MS = 20;
const FRAME_SAMPLES = (RATE * FRAME_MS) / 1000;
/** Frames of silence between two key presses (250 ms). */
const DTMF_GAP_FRAMES = 12;

type PlayoutItem = { kind: "audio"; pcm: Int16Array; offset: number } | { kind: "mark"; name: string };
type CallerItem = { kind: "speech"; pcm: Int16Array; offset: number } | { kind: "dtmf"; digit: string };

interface Waiter {
  check(): boolean;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  what: string;
}

export class PhoneLeg {
  readonly events: LegEvent[] = [];
  /** Resolves when the socket is open and the opening messages are sent. */
  readonly opened: Promise<void>;
  /** Resolves when the stream has closed, whoever closed it. */
  readonly done: Promise<LegResult>;

  private readonly socket: WebSocket;
  private readonly wire: StreamWire;
  private readonly now: () => number;
  private readonly receivedChunks: Int16Array[] = [];
  private readonly playedChunks: Int16Array[] = [];
  private readonly sentChunks: Int16Array[] = [];
  private readonly playout: PlayoutItem[] = [];
  private readonly caller: CallerItem[] = [];
  private readonly waiters = new Set<Waiter>();
  private ticker: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private framesDone = 0;
  private dtmfCooldown = 0;
  private closing: LegCloser | null = null;
  private result: LegResult | null = null;
  private resolveDone: (result: LegResult) => void = () => {};

  constructor(options: PhoneLegOptions) {
    this.wire = options.wire;
    this.now = options.now;
    if (options.speech) this.caller.push({ kind: "speech", pcm: options.speech, offset: 0 });
    for (const digit of options.dtmf ?? []) this.caller.push({ kind: "dtmf", digit });
    this.done = new Promise<LegResult>((resolve) => {
      this.resolveDone = resolve;
    });
    this.socket = new WebSocket(options.url, { headers: options.headers ?? {} });
    this.opened = new Promise<void>((resolve, reject) => {
      this.socket.once("open", () => {
        this.events.push({ type: "open", at: this.now() });
        for (const message of this.wire.opening()) this.send(message);
        this.startedAt = performance.now();
        this.ticker = setInterval(() => this.tick(), 5);
        resolve();
      });
      this.socket.once("error", (error) => reject(error));
    });
    // A refused or failed handshake is reported through `done`, not as an unhandled rejection.
    this.opened.catch(() => {});
    this.socket.on("message", (data, isBinary) => this.onMessage(toBuffer(data), isBinary));
    this.socket.on("close", (code, reason) => this.onClose(code, reason.toString("utf8")));
    this.socket.on("error", () => {
      if (!this.closing) this.closing = "error";
    });
    this.done.then((result) => options.onClosed?.(result));
  }

  /** Everything Parley sent to be played, as 16 kHz PCM (including audio a clear later dropped). */
  received(): Int16Array {
    return concatPcm(this.receivedChunks);
  }

  /** What the caller heard: received audio that playout reached before any clear. */
  played(): Int16Array {
    return concatPcm(this.playedChunks);
  }

  /** The caller audio sent so far, 16 kHz PCM (speech and silence). */
  sent(): Int16Array {
    return concatPcm(this.sentChunks);
  }

  /** Milliseconds of received audio still waiting to be played. */
  queuedMs(): number {
    let samples = 0;
    for (const item of this.playout) if (item.kind === "audio") samples += item.pcm.length - item.offset;
    return (samples / RATE) * 1000;
  }

  get closed(): boolean {
    return this.result !== null;
  }

  /** Queues more caller speech (e.g. to barge in while the assistant talks). */
  say(pcm: Int16Array): void {
    this.caller.push({ kind: "speech", pcm, offset: 0 });
  }

  /** Queues key presses after any speech already queued. */
  pressKeys(digits: string): void {
    for (const digit of digits) this.caller.push({ kind: "dtmf", digit });
  }

  /** The caller hangs up: the vendor sends its closing messages and closes the stream. */
  async hangup(): Promise<LegResult> {
    return this.end("caller");
  }

  /** The vendor ends the stream (a transfer or an API update replaced the markup). */
  async end(by: LegCloser = "vendor"): Promise<LegResult> {
    if (this.result) return this.result;
    if (!this.closing) {
      this.closing = by;
      if (this.socket.readyState === WebSocket.OPEN) {
        for (const message of this.wire.closing()) this.send(message);
        this.socket.close(1000, by === "caller" ? "Caller hung up" : "Stream ended");
      } else {
        this.socket.terminate();
      }
    }
    return this.done;
  }

  /** Waits until `check` holds (checked every tick), failing after `timeoutMs` or when the stream ends first. */
  waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        check,
        what,
        resolve: () => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve();
        },
        reject: (error) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          reject(error);
        },
        timer: setTimeout(
          () => waiter.reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)),
          timeoutMs,
        ),
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits until at least `ms` of audio has been received. */
  waitForAudio(ms: number, timeoutMs = 30_000): Promise<void> {
    return this.waitFor(() => this.receivedMs() >= ms, `${ms} ms of audio from the stream`, timeoutMs);
  }

  /** Waits for an event of a type (and matching `where`). */
  waitForEvent<T extends LegEvent["type"]>(
    type: T,
    where: (event: Extract<LegEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 30_000,
  ): Promise<Extract<LegEvent, { type: T }>> {
    const find = () =>
      this.events.find(
        (e): e is Extract<LegEvent, { type: T }> => e.type === type && where(e as Extract<LegEvent, { type: T }>),
      );
    return this.waitFor(() => find() !== undefined, `a "${type}" stream event`, timeoutMs).then(() => {
      const event = find();
      if (!event) throw new Error(`The "${type}" event vanished`);
      return event;
    });
  }

  receivedMs(): number {
    let samples = 0;
    for (const chunk of this.receivedChunks) samples += chunk.length;
    return (samples / RATE) * 1000;
  }

  private send(message: WireMessage): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(message, { binary: typeof message !== "string" });
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.closing) return;
    for (const command of this.wire.decode(data, isBinary)) {
      const at = this.now();
      switch (command.type) {
        case "audio":
          if (this.receivedChunks.length === 0) this.events.push({ type: "audio-start", at });
          this.receivedChunks.push(command.pcm);
          this.playout.push({ kind: "audio", pcm: command.pcm, offset: 0 });
          break;
        case "mark":
          this.events.push({ type: "mark", name: command.name, phase: "queued", at });
          this.playout.push({ kind: "mark", name: command.name });
          break;
        case "clear":
          this.clear(at);
          break;
        case "ignored":
          this.events.push({ type: "ignored", message: command.message, at });
          break;
        case "invalid":
          this.events.push({ type: "invalid", reason: command.reason, raw: command.raw, at });
          break;
      }
    }
  }

  private clear(at: number): void {
    let droppedSamples = 0;
    const droppedMarks: string[] = [];
    for (const item of this.playout) {
      if (item.kind === "audio") droppedSamples += item.pcm.length - item.offset;
      else droppedMarks.push(item.name);
    }
    this.playout.length = 0;
    this.events.push({ type: "clear", at, droppedMs: Math.round((droppedSamples / RATE) * 1000), droppedMarks });
    for (const name of droppedMarks) this.events.push({ type: "mark", name, phase: "cleared", at });
    for (const message of this.wire.cleared(droppedMarks)) this.send(message);
  }

  /** Runs every frame that is due on the wall clock: one caller frame out, 20 ms of playout. */
  private tick(): void {
    const due = Math.floor((performance.now() - this.startedAt) / FRAME_MS);
    while (this.framesDone < due && !this.closing) {
      this.framesDone++;
      this.sendCallerFrame();
      this.playFrame();
    }
    this.checkWaiters();
  }

  private sendCallerFrame(): void {
    const frame = new Int16Array(FRAME_SAMPLES);
    const head = this.caller[0];
    if (head?.kind === "speech") {
      const part = head.pcm.subarray(head.offset, head.offset + FRAME_SAMPLES);
      frame.set(part);
      head.offset += part.length;
      if (head.offset >= head.pcm.length) {
        this.caller.shift();
        this.events.push({ type: "speech-sent", ms: Math.round((head.pcm.length / RATE) * 1000), at: this.now() });
      }
    } else if (head?.kind === "dtmf") {
      if (this.dtmfCooldown > 0) this.dtmfCooldown--;
      else {
        this.caller.shift();
        this.dtmfCooldown = DTMF_GAP_FRAMES;
        for (const message of this.wire.dtmf(head.digit)) this.send(message);
        this.events.push({ type: "dtmf-sent", digit: head.digit, at: this.now() });
      }
    }
    this.sentChunks.push(frame);
    for (const message of this.wire.audio(frame)) this.send(message);
  }

  private playFrame(): void {
    let need = FRAME_SAMPLES;
    const out: Int16Array[] = [];
    while (this.playout.length > 0) {
      const head = this.playout[0];
      if (!head) break;
      if (head.kind === "mark") {
        this.playout.shift();
        this.events.push({ type: "mark", name: head.name, phase: "played", at: this.now() });
        for (const message of this.wire.markPlayed(head.name)) this.send(message);
        continue;
      }
      if (need === 0) break;
      const part = head.pcm.subarray(head.offset, head.offset + need);
      out.push(part);
      head.offset += part.length;
      need -= part.length;
      if (head.offset >= head.pcm.length) this.playout.shift();
    }
    if (out.length > 0) this.playedChunks.push(concatPcm(out));
  }

  private checkWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.check()) waiter.resolve();
      else if (this.result) waiter.reject(new Error(`The stream closed before ${waiter.what}`));
    }
  }

  private onClose(code: number, reason: string): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    const by: LegCloser = this.closing ?? "parley";
    this.closing = by;
    this.result = { closedBy: by, code, reason };
    this.events.push({ type: "closed", by, code, reason, at: this.now() });
    this.checkWaiters();
    this.resolveDone(this.result);
  }
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
