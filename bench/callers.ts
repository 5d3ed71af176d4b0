// The callers of the socket-calls, admission and cluster benches, in a process of their own (forked
// by the bench) so their CPU is not counted against the server and their clock is not a server's
// event loop: each caller opens a browser call (realtime WebSocket) or a Twilio media stream after a
// signed voice webhook, sends audio every 20 ms of wall clock — silence, its line, silence — and
// measures each turn from sending its last voiced frame to receiving the first audible frame of the
// reply. It lets the reply play out, pauses a moment and speaks again, `turns` times, then hangs up.
// It listens for audio gaps: a reply (the instant voice's continuous tone) arrives paced in 20 ms
// frames, so a frame arriving after everything received of the reply before it has played out left
// the caller's ear without sound for that long (the server sends nothing while the assistant is
// quiet, so only replies are timed). It tells the bench when every call is up ("steady") and when the
// first one finishes ("winding"), so the server's CPU can be read over the stretch in which all calls
// run at once.
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { callerSpeech, frameRms } from "@parley/engine/testing/telephony/audio-checks";
import { MulawCodec } from "@parley/engine/testing/telephony/mulaw-json-wire";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import WebSocket from "ws";
import { webhookUrlsFor } from "../apps/server/src/modules/phone-numbers/webhook-urls.ts";
import { AUDIBLE_RMS, streamOfTwiml } from "../apps/server/test/support/twilio-caller.ts";

export type CallKind = "browser" | "twilio";

/** Where and how the callers of one level call. */
export interface LevelOrder {
  type: "level";
  kind: CallKind;
  calls: number;
  turns: number;
  /** Through the load balancer (or the one process): API, webhooks and sockets. */
  base: string;
  userToken: string;
  agentId: string;
  twilio: { accountSid: string; authToken: string; number: string };
  /** Makes each Twilio caller's From number unique over the run. */
  firstCaller: number;
}

export interface CallOutcome {
  callId: string | null;
  /** Caller-side waits (ms) of the turns answered. */
  waits: number[];
  /** Turns with no audible reply within TURN_TIMEOUT_MS. */
  unanswered: number;
  /** The longest stretch (ms) in which the caller's ear ran dry: all audio received had played out. */
  maxGapMs: number;
  /** Stretches of more than GAP_MS without audio. */
  gaps: number;
  /** Audio messages the server sent, and the seconds the call was up: the server's writes per second. */
  audioMessages: number;
  upSeconds: number;
  error: string | null;
}

export type CallersMessage =
  | { type: "ready" }
  | { type: "steady" }
  | { type: "winding" }
  | { type: "result"; outcomes: CallOutcome[]; load: CallersLoad; tokenRetries: number }
  | { type: "failed"; message: string };

const FRAME_MS = 20;
/** 16 kHz, 16-bit: the realtime socket's caller audio. */
const FRAME_SAMPLES = 320;
const TURN_TIMEOUT_MS = 15_000;
/** The reply has ended once nothing audible arrived for this long (and what arrived has played). */
const REPLY_END_QUIET_MS = 400;
/** A caller waits this long (plus up to PAUSE_JITTER_MS) before speaking, so calls do not move in step. */
const PAUSE_MS = 400;
const PAUSE_JITTER_MS = 600;
const START_JITTER_MS = 1_500;
/** From the first request of a call to its socket being ready. */
const CONNECT_TIMEOUT_MS = 60_000;
/** The caller's words (cluster-instant-vendor.ts "hears" its line whatever is said). */
const LINE = "I would like to book a table for two tonight";
const MULAW_SILENCE = 0xff;
/** A stretch without audio longer than this is a gap a caller hears (the bar for lost audio). */
export const GAP_MS = 100;

/** Room-token requests answered 404 and asked again, over the level (see browserLine). */
const tokenRetries = { count: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Speech {
  pcm: Buffer[];
  mulaw: string[];
  lastVoiced: number;
}

function speech(): Speech {
  const samples = callerSpeech(LINE, { wordsPerMinute: 180 });
  const levels = frameRms(samples, FRAME_SAMPLES);
  let lastVoiced = -1;
  levels.forEach((level, i) => {
    if (level >= AUDIBLE_RMS) lastVoiced = i;
  });
  if (lastVoiced < 0) throw new Error("the caller's line has no audible frame");
  const codec = new MulawCodec();
  const pcm: Buffer[] = [];
  const mulaw: string[] = [];
  // Up to the last voiced frame: the silence after it is the caller's ordinary silence.
  for (let i = 0; i <= lastVoiced; i++) {
    const frame = samples.slice(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES);
    const full =
      frame.length === FRAME_SAMPLES ? frame : Int16Array.from({ length: FRAME_SAMPLES }, (_, j) => frame[j] ?? 0);
    pcm.push(Buffer.from(full.buffer, full.byteOffset, full.byteLength));
    mulaw.push(codec.encode(full));
  }
  return { pcm, mulaw, lastVoiced };
}

function rmsOfPcm(bytes: Buffer): number {
  const n = Math.floor(bytes.length / 2);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = bytes.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / n);
}

/** G.711 μ-law byte to a 16-bit sample. */
function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << exponent;
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

function rmsOfMulaw(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let sum = 0;
  for (const byte of bytes) {
    const s = mulawToLinear(byte);
    sum += s * s;
  }
  return Math.sqrt(sum / bytes.length);
}

/** What one call's socket does differently per kind: how a frame goes out, how it ends. */
interface Line {
  socket: WebSocket;
  sendFrame(index: number | null): void;
  hangup(): void;
}

async function api(order: LevelOrder, method: string, path: string): Promise<unknown> {
  const res = await fetch(`${order.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${order.userToken}` },
  });
  const body: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

const field = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined), value);

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
}

/** A browser call: start it, take a room token, open the socket it names, wait for "ready". */
async function browserLine(order: LevelOrder, talk: Speech, onAudio: (rms: number, ms: number) => void) {
  const started = await api(order, "POST", `/agents/${order.agentId}/call`);
  const callId = String(field(started, "call_id"));
  const room = String(field(started, "room", "name"));
  const query = new URLSearchParams({ room_name: room, user_identity: `bench-${callId}`, name: "Bench" });
  // Behind the balancer the token request may reach another node before the holder's live_rooms
  // row is written (POST …/call answers first): that node says 404, and a client asks again.
  let grant: unknown;
  for (let attempt = 0; ; attempt++) {
    try {
      grant = await api(order, "GET", `/agents/room/generate_room_token?${query}`);
      break;
    } catch (error) {
      if (attempt >= 20 || !String(error).includes("answered 404")) throw error;
      tokenRetries.count += 1;
      await sleep(100);
    }
  }
  const path = String(field(grant, "url") || "/api/v1/realtime");
  const url = `${order.base.replace(/^http/, "ws")}${path}?token=${encodeURIComponent(String(field(grant, "accessToken")))}`;
  const socket = new WebSocket(url);
  const ready = new Promise<void>((resolve, reject) => {
    socket.on("message", (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) onAudio(rmsOfPcm(bytes), (bytes.length / 2 / 16_000) * 1000);
      else if (field(JSON.parse(bytes.toString("utf8")), "type") === "ready") resolve();
    });
    socket.once("close", (code) => reject(new Error(`the socket closed (${code}) before ready`)));
  });
  await opened(socket);
  await ready;
  const silence = Buffer.alloc(FRAME_SAMPLES * 2);
  const line: Line = {
    socket,
    sendFrame: (index) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(index === null ? silence : (talk.pcm[index] ?? silence));
    },
    hangup: () => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "hangup" }));
      socket.close(1000);
    },
  };
  return { callId, line };
}

/** A Twilio call: the signed voice webhook, then the <Stream> of its TwiML, as Twilio's Media Streams. */
async function twilioLine(order: LevelOrder, talk: Speech, caller: number, onAudio: (rms: number, ms: number) => void) {
  const callSid = `CA${randomBytes(16).toString("hex")}`;
  const { voiceUrl } = webhookUrlsFor(order.base, "twilio");
  const params: Record<string, string> = {
    AccountSid: order.twilio.accountSid,
    CallSid: callSid,
    From: `+1415${String(6_000_000 + caller).padStart(7, "0")}`,
    To: order.twilio.number,
    CallStatus: "ringing",
    Direction: "inbound",
    ApiVersion: "2010-04-01",
  };
  const res = await fetch(voiceUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(order.twilio.authToken, voiceUrl, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  const twiml = await res.text();
  if (res.status !== 200) throw new Error(`the voice webhook answered ${res.status}: ${twiml}`);
  const stream = streamOfTwiml(twiml);
  const socket = new WebSocket(stream.url);
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  let sequence = 0;
  let chunk = 0;
  const send = (message: Record<string, unknown>) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    sequence += 1;
    socket.send(JSON.stringify({ ...message, sequenceNumber: String(sequence), streamSid }));
  };
  // Twilio answers a mark once the audio queued before it has played.
  let playoutEndsAt = 0;
  const marks = new Set<NodeJS.Timeout>();
  socket.on("message", (data, isBinary) => {
    if (isBinary) return;
    const message: unknown = JSON.parse(String(data));
    const event = field(message, "event");
    if (event === "media") {
      const bytes = Buffer.from(String(field(message, "media", "payload")), "base64");
      const now = performance.now();
      playoutEndsAt = Math.max(playoutEndsAt, now) + (bytes.length / 8000) * 1000;
      onAudio(rmsOfMulaw(bytes), (bytes.length / 8000) * 1000);
    } else if (event === "mark") {
      const name = String(field(message, "mark", "name"));
      const timer = setTimeout(
        () => {
          marks.delete(timer);
          send({ event: "mark", mark: { name } });
        },
        Math.max(0, playoutEndsAt - performance.now()),
      );
      marks.add(timer);
    } else if (event === "clear") {
      playoutEndsAt = performance.now();
    }
  });
  await opened(socket);
  socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
  send({
    event: "start",
    start: {
      accountSid: order.twilio.accountSid,
      streamSid,
      callSid,
      tracks: ["inbound"],
      customParameters: stream.parameters,
      mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
    },
  });
  const silence = Buffer.alloc(160, MULAW_SILENCE).toString("base64");
  let framesSent = 0;
  const line: Line = {
    socket,
    sendFrame: (index) => {
      chunk += 1;
      send({
        event: "media",
        media: {
          track: "inbound",
          chunk: String(chunk),
          timestamp: String(framesSent * FRAME_MS),
          payload: index === null ? silence : (talk.mulaw[index] ?? silence),
        },
      });
      framesSent += 1;
    },
    hangup: () => {
      for (const timer of marks) clearTimeout(timer);
      send({ event: "stop", stop: { accountSid: order.twilio.accountSid, callSid } });
      socket.close(1000, "Caller hung up");
    },
  };
  return { callId: stream.parameters.call_id ?? null, line };
}

/** One call from start to hang-up; its turns are driven by `tick`, called every few ms by the level. */
function runCall(
  order: LevelOrder,
  talk: Speech,
  index: number,
  ticks: Set<() => void>,
  onConnected: () => void,
): Promise<CallOutcome> {
  const outcome: CallOutcome = {
    callId: null,
    waits: [],
    unanswered: 0,
    maxGapMs: 0,
    gaps: 0,
    audioMessages: 0,
    upSeconds: 0,
    error: null,
  };
  /** When every frame of the reply received so far will have played. */
  let streamPlayedAt = 0;
  let phase: "connecting" | "pause" | "speaking" | "waiting" | "listening" | "done" = "connecting";
  let origin = 0;
  let framesSent = 0;
  let speechIndex = 0;
  let pauseUntil = 0;
  let lastVoicedSentAt = 0;
  let lastAudibleAt = 0;
  let playoutEndsAt = 0;
  let turns = 0;
  let line: Line | null = null;

  let heardFrames = 0;
  let quietFrames = 0;
  const gap = (ms: number) => {
    if (ms > outcome.maxGapMs) outcome.maxGapMs = ms;
    if (ms > GAP_MS) outcome.gaps += 1;
  };
  const onAudio = (rms: number, ms: number) => {
    const now = performance.now();
    outcome.audioMessages += 1;
    if (rms < AUDIBLE_RMS) {
      // The server's keepalive while the assistant is quiet (one silent frame every 200 ms): not
      // part of a reply, so it neither shows nor fills a gap.
      quietFrames += 1;
      return;
    }
    // Within a reply (a continuous tone) every frame is due when the ones before it have played.
    if (phase === "listening") gap(now - streamPlayedAt);
    heardFrames += 1;
    // Sound after the reply was taken to have ended (REPLY_END_QUIET_MS without any): the reply broke off.
    if (phase === "pause" || phase === "speaking") gap(now - lastAudibleAt);
    // Only sound counts toward the playout: a line that carries silence between replies is quiet.
    playoutEndsAt = Math.max(playoutEndsAt, now) + ms;
    lastAudibleAt = now;
    if (phase === "waiting") {
      outcome.waits.push(now - lastVoicedSentAt);
      phase = "listening";
      streamPlayedAt = now;
    }
    if (phase === "listening") streamPlayedAt = Math.max(streamPlayedAt, now) + ms;
  };
  const pause = (now: number) => {
    phase = "pause";
    pauseUntil = now + PAUSE_MS + Math.random() * PAUSE_JITTER_MS;
  };

  return new Promise((resolve) => {
    const finish = (error: string | null) => {
      if (phase === "done") return;
      phase = "done";
      ticks.delete(tick);
      if (origin > 0) outcome.upSeconds = (performance.now() - origin) / 1000;
      outcome.error = error;
      clearTimeout(deadline);
      line?.hangup();
      resolve(outcome);
    };
    // A call that neither finishes nor fails (a socket that never says "ready", a reply that never
    // ends) would hold the level for ever: it ends with what it was doing then.
    const deadline = setTimeout(
      () => {
        const where = phase;
        finish(
          `stuck ${where} after ${turns} turns (${Math.round(performance.now() - playoutEndsAt)} ms past playout, ${heardFrames} audible and ${quietFrames} quiet frames heard)`,
        );
      },
      START_JITTER_MS + CONNECT_TIMEOUT_MS + order.turns * (TURN_TIMEOUT_MS + 5_000),
    );
    const nextFrame = (now: number): number | null => {
      if (phase !== "speaking") return null;
      const frame = speechIndex;
      if (frame === talk.lastVoiced) {
        lastVoicedSentAt = now;
        phase = "waiting";
      }
      speechIndex += 1;
      return frame;
    };
    // One frame per 20 ms of wall clock since the call opened, caught up if a tick came late.
    function tick() {
      if (!line || phase === "done" || phase === "connecting") return;
      const now = performance.now();
      if (phase === "pause" && now >= pauseUntil) {
        phase = "speaking";
        speechIndex = 0;
      } else if (phase === "waiting" && now - lastVoicedSentAt > TURN_TIMEOUT_MS) {
        outcome.unanswered += 1;
        phase = "listening";
        lastAudibleAt = now;
      } else if (phase === "listening" && now - lastAudibleAt >= REPLY_END_QUIET_MS && now >= playoutEndsAt) {
        turns += 1;
        if (turns >= order.turns) return finish(null);
        pause(now);
      }
      const due = Math.floor((now - origin) / FRAME_MS);
      while (framesSent < due && line.socket.readyState === WebSocket.OPEN) {
        line.sendFrame(nextFrame(now));
        framesSent += 1;
      }
    }
    void (async () => {
      await sleep(Math.random() * START_JITTER_MS);
      const opened =
        order.kind === "browser"
          ? await browserLine(order, talk, onAudio)
          : await twilioLine(order, talk, order.firstCaller + index, onAudio);
      outcome.callId = opened.callId;
      line = opened.line;
      line.socket.once("close", (code) => {
        if (phase !== "done") finish(`the socket closed (${code}) after ${turns} turns`);
      });
      origin = performance.now();
      pause(origin);
      ticks.add(tick);
      onConnected();
    })().catch((error: unknown) => finish(error instanceof Error ? error.message : String(error)));
  });
}

/** The callers' own load over a level: if their loop lags, their clock is late too. */
export interface CallersLoad {
  cpuCores: number;
  loopDelayP99Ms: number;
}

async function runLevel(order: LevelOrder, talk: Speech): Promise<{ outcomes: CallOutcome[]; load: CallersLoad }> {
  const ticks = new Set<() => void>();
  const ticker = setInterval(() => {
    for (const tick of ticks) tick();
  }, 5);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  try {
    let connected = 0;
    let winding = false;
    const onConnected = () => {
      connected += 1;
      if (connected === order.calls) process.send?.({ type: "steady" } satisfies CallersMessage);
    };
    const calls = Array.from({ length: order.calls }, (_, i) =>
      runCall(order, talk, i, ticks, onConnected).then((outcome) => {
        if (!winding) process.send?.({ type: "winding" } satisfies CallersMessage);
        winding = true;
        return outcome;
      }),
    );
    const outcomes = await Promise.all(calls);
    const cpu = process.cpuUsage(cpuStart);
    const load = {
      cpuCores: (cpu.user + cpu.system) / 1000 / (performance.now() - start),
      loopDelayP99Ms: delay.percentile(99) / 1e6,
    };
    return { outcomes, load };
  } finally {
    delay.disable();
    clearInterval(ticker);
  }
}

const talk = speech();
process.on("message", (order: LevelOrder) => {
  runLevel(order, talk).then(
    ({ outcomes, load }) => {
      process.send?.({ type: "result", outcomes, load, tokenRetries: tokenRetries.count } satisfies CallersMessage);
      tokenRetries.count = 0;
    },
    (error: unknown) => process.send?.({ type: "failed", message: String(error) } satisfies CallersMessage),
  );
});
process.send?.({ type: "ready" } satisfies CallersMessage);
