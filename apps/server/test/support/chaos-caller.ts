import { randomBytes } from "node:crypto";
import { callerSpeech } from "@parley/engine/testing/telephony/audio-checks";
import { MulawCodec } from "@parley/engine/testing/telephony/mulaw-json-wire";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import WebSocket from "ws";
import { webhookUrlsFor } from "../../src/modules/phone-numbers/service.ts";
import type { TestApp } from "../harness.ts";
import { joinCall } from "./realtime-calls.ts";
import type { RealtimeClient } from "./realtime-client.ts";
import { streamOfTwiml } from "./twilio-caller.ts";

/**
 * A caller for the chaos tests, on the browser's realtime socket or on a Twilio media stream: a
 * microphone that sends one 20 ms frame per 20 ms of wall clock (speech when told to speak, quiet
 * otherwise), and an ear that times every frame of assistant audio by when it would play — audio
 * that arrives faster than real time queues behind what is still playing — so a test measures the
 * silences the caller heard on the wire, not what the server says it did.
 */

const FRAME_MS = 20;
/** 20 ms at the engine's 16 kHz. */
const FRAME_SAMPLES = 320;
/** The server's own bar for an audible frame (about -50 dBFS). */
export const AUDIBLE_RMS = 100;

function rmsOf(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (const sample of pcm) sum += sample * sample;
  return Math.sqrt(sum / pcm.length);
}

export interface HeardSound {
  /** performance.now() when it starts playing and stops. */
  from: number;
  to: number;
}

export interface Gap {
  ms: number;
  from: number;
  to: number;
}

/**
 * The caller's ear: stretches of assistant sound, timed by when their frames arrived on the wire
 * (the server paces its audio in real time), and when the audio received so far will have played
 * (for answering a carrier's marks).
 */
export class CallerEar {
  readonly sounds: HeardSound[] = [];
  /** When the audio received so far will have played, were it played as it came. */
  playoutEndsAt = 0;
  private readonly waiters = new Set<() => void>();

  /** Audio (16 kHz samples) that arrived `at`. */
  hear(pcm: Int16Array, at: number): void {
    const ms = (pcm.length / 16_000) * 1000;
    this.playoutEndsAt = Math.max(this.playoutEndsAt, at) + ms;
    if (rmsOf(pcm) < AUDIBLE_RMS) return;
    const last = this.sounds.at(-1);
    // Frames arriving back to back (within a frame's jitter) are one stretch of sound.
    if (last && at - last.to <= FRAME_MS) last.to = Math.max(last.to, at + ms);
    else this.sounds.push({ from: at, to: at + ms });
    for (const wake of this.waiters) wake();
  }

  /** The queued audio is dropped (a barge-in's `clear`): nothing more plays from the queue. */
  clear(at: number): void {
    this.playoutEndsAt = at;
  }

  /** The longest stretch without sound from `from` (the end of the caller's turn) to `to`. */
  longestGap(from: number, to = performance.now()): Gap {
    let gap: Gap = { ms: 0, from, to: from };
    let quietSince = from;
    for (const sound of this.sounds) {
      if (sound.to <= from) continue;
      if (sound.from >= to) break;
      if (sound.from - quietSince > gap.ms) gap = { ms: sound.from - quietSince, from: quietSince, to: sound.from };
      quietSince = Math.max(quietSince, sound.to);
    }
    if (to - quietSince > gap.ms) gap = { ms: to - quietSince, from: quietSince, to };
    return gap;
  }

  /** When the first sound starting at or after `from` plays. */
  firstSoundAfter(from: number): number | null {
    return this.sounds.find((s) => s.to > from)?.from ?? null;
  }

  /** When sound playing at or after `from` has run out and nothing followed for `quietMs`. */
  quietAfter(from: number, quietMs: number): number | null {
    const last = this.sounds.filter((s) => s.to > from).at(-1);
    const since = Math.max(from, last?.to ?? from);
    return performance.now() - since >= quietMs ? since : null;
  }

  /** Resolves with `read()` once it is not null (checked on every sound and every 50 ms). */
  wait<T>(read: () => T | null, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value === null) return;
        clearTimeout(timer);
        clearInterval(ticker);
        this.waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        clearInterval(ticker);
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const ticker = setInterval(check, 50);
      this.waiters.add(check);
      check();
    });
  }
}

/** The caller's line as 20 ms frames of 16 kHz speech, and the index of its last voiced frame. */
export function lineFrames(line: string): { frames: Int16Array[]; lastVoiced: number } {
  const pcm = callerSpeech(line);
  const frames: Int16Array[] = [];
  for (let i = 0; i + FRAME_SAMPLES <= pcm.length; i += FRAME_SAMPLES) frames.push(pcm.slice(i, i + FRAME_SAMPLES));
  const lastVoiced = frames.findLastIndex((f) => rmsOf(f) >= AUDIBLE_RMS);
  if (lastVoiced < 0) throw new Error(`the line "${line}" has no audible frame`);
  return { frames, lastVoiced };
}

/** One 20 ms frame per 20 ms of wall clock since `start`, caught up when a tick comes late. */
class Microphone {
  private queue: { pcm: Int16Array; lastVoiced: boolean }[] = [];
  private readonly waiting: { resolve: (at: number) => void }[] = [];
  private sent = 0;
  private readonly origin = performance.now();
  private readonly ticker: NodeJS.Timeout;
  private readonly silence = new Int16Array(FRAME_SAMPLES);

  constructor(private readonly send: (pcm: Int16Array) => void) {
    this.ticker = setInterval(() => this.tick(), 5);
  }

  /** Says the line; resolves with the time its last voiced frame went out (the end of the caller's turn). */
  say(line: { frames: Int16Array[]; lastVoiced: number }): Promise<number> {
    return new Promise((resolve) => {
      line.frames.forEach((pcm, i) => {
        this.queue.push({ pcm, lastVoiced: i === line.lastVoiced });
      });
      this.waiting.push({ resolve });
    });
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  private tick(): void {
    const due = Math.floor((performance.now() - this.origin) / FRAME_MS);
    while (this.sent < due) {
      const next = this.queue.shift();
      this.send(next?.pcm ?? this.silence);
      this.sent += 1;
      if (next?.lastVoiced) this.waiting.shift()?.resolve(performance.now());
    }
  }
}

/** What both callers offer a test. */
export interface ChaosCaller {
  readonly ear: CallerEar;
  /** The call's socket closed (the server hung up, or the caller did). */
  readonly closed: Promise<void>;
  /** Says `line`; resolves with when its last voiced frame went out. */
  say(line: string): Promise<number>;
  /** Fault messages the caller was shown (browser only; empty on the phone). */
  faults(): { stage: string; provider: string; kind: string; action: string }[];
  hangUp(): Promise<void>;
}

/** A browser caller in a call to `agentId` over the realtime socket (16 kHz PCM both ways). */
export async function callInBrowser(
  t: TestApp,
  userToken: string,
  agentId: string,
): Promise<ChaosCaller & { callId: string; client: RealtimeClient; messageAt(type: string): number | null }> {
  const { client, callId } = await joinCall(t, userToken, agentId, { origin: new URL(t.config.publicUrl).origin });
  return { callId, ...browserCaller(client) };
}

/** The microphone and ear of a browser caller on a realtime socket already joined to its call. */
export function browserCaller(
  client: RealtimeClient,
): ChaosCaller & { client: RealtimeClient; messageAt(type: string): number | null } {
  const ear = new CallerEar();
  /** When the first message of each type arrived. */
  const firstAt = new Map<string, number>();
  client.socket.on("message", (data, isBinary) => {
    if (!isBinary) {
      const type = (JSON.parse(String(data)) as { type?: string }).type ?? "";
      if (!firstAt.has(type)) firstAt.set(type, performance.now());
      return;
    }
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    const pcm = new Int16Array(Math.floor(bytes.length / 2));
    for (let i = 0; i < pcm.length; i += 1) pcm[i] = bytes.readInt16LE(i * 2);
    ear.hear(pcm, performance.now());
  });
  // Messages that came before the listener: dated now, a little late at worst.
  for (const m of client.messages) if (!firstAt.has(m.type)) firstAt.set(m.type, performance.now());
  const mic = new Microphone((pcm) => {
    if (client.socket.readyState === WebSocket.OPEN) client.sendPcm(pcm);
  });
  const closed = client.closed.then(() => mic.stop());
  return {
    client,
    messageAt: (type) => firstAt.get(type) ?? null,
    ear,
    closed,
    say: (line) => mic.say(lineFrames(line)),
    faults: () =>
      client.messages
        .filter((m) => m.type === "fault")
        .map((m) => ({
          stage: String(m.stage),
          provider: String(m.provider),
          kind: String(m.kind),
          action: String(m.action),
        })),
    async hangUp() {
      mic.stop();
      if (client.socket.readyState === WebSocket.OPEN) client.send({ type: "hangup" });
      await client.closed;
    },
  };
}

export interface TwilioLine {
  publicUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  to: string;
}

/**
 * A caller ringing a Parley number as Twilio does (a signed voice webhook, then the TwiML's
 * <Stream>), speaking Media Streams from Twilio's docs: `connected`, `start`, a `media` message of
 * base64 8 kHz μ-law every 20 ms, each `mark` answered once the audio before it has played, the
 * queue dropped on `clear`, `stop` to hang up.
 */
export async function callOnTwilio(line: TwilioLine): Promise<ChaosCaller & { callSid: string }> {
  const callSid = `CA${randomBytes(16).toString("hex")}`;
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  const { voiceUrl } = webhookUrlsFor(line.publicUrl, "twilio");
  const params: Record<string, string> = {
    AccountSid: line.accountSid,
    CallSid: callSid,
    From: line.from,
    To: line.to,
    CallStatus: "ringing",
    Direction: "inbound",
    ApiVersion: "2010-04-01",
  };
  const res = await fetch(voiceUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(line.authToken, voiceUrl, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  const twiml = await res.text();
  if (res.status !== 200) throw new Error(`the voice webhook answered ${res.status}: ${twiml}`);
  const stream = streamOfTwiml(twiml);
  const socket = new WebSocket(stream.url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const ear = new CallerEar();
  const inbound = new MulawCodec();
  const outbound = new MulawCodec();
  let sequence = 0;
  let chunk = 0;
  let frames = 0;
  const send = (message: Record<string, unknown>) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    sequence += 1;
    socket.send(JSON.stringify({ ...message, sequenceNumber: String(sequence), streamSid }));
  };
  const marks = new Set<NodeJS.Timeout>();
  socket.on("message", (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(String(data)) as {
      event?: string;
      media?: { payload?: string };
      mark?: { name?: string };
    };
    if (message.event === "media" && typeof message.media?.payload === "string") {
      const pcm = inbound.decode(message.media.payload);
      if (pcm) ear.hear(pcm, performance.now());
    } else if (message.event === "mark" && typeof message.mark?.name === "string") {
      const name = message.mark.name;
      const timer = setTimeout(
        () => {
          marks.delete(timer);
          send({ event: "mark", mark: { name } });
        },
        Math.max(0, ear.playoutEndsAt - performance.now()),
      );
      marks.add(timer);
    } else if (message.event === "clear") {
      ear.clear(performance.now());
    }
  });
  socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
  send({
    event: "start",
    start: {
      accountSid: line.accountSid,
      streamSid,
      callSid,
      tracks: ["inbound"],
      customParameters: stream.parameters,
      mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
    },
  });
  const mic = new Microphone((pcm) => {
    chunk += 1;
    send({
      event: "media",
      media: {
        track: "inbound",
        chunk: String(chunk),
        timestamp: String(frames * FRAME_MS),
        payload: outbound.encode(pcm),
      },
    });
    frames += 1;
  });
  const closed = new Promise<void>((resolve) => {
    socket.on("close", () => {
      mic.stop();
      for (const timer of marks) clearTimeout(timer);
      resolve();
    });
  });
  return {
    callSid,
    ear,
    closed,
    say: (text) => mic.say(lineFrames(text)),
    faults: () => [],
    async hangUp() {
      mic.stop();
      send({ event: "stop", stop: { accountSid: line.accountSid, callSid } });
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, "Caller hung up");
      await closed;
    },
  };
}
