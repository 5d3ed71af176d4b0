import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RoomTokenResponse, StartCallResponse } from "@parley/contract";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import { g711Decode, parseRtp } from "@parley/sip";
import WebSocket from "ws";
import { webhookUrlsFor } from "../../src/modules/phone-numbers/service.ts";
import type { client } from "./server-process.ts";
import { freeUdpPort } from "./sip-peers.ts";
import { streamOfTwiml } from "./twilio-caller.ts";

/**
 * The three kinds of caller of the cluster tests, each as a real client from outside the servers:
 * a browser on the realtime socket, a phone on a Twilio media stream, a SIP phone (sipp with its
 * RTP on a socket of ours). Each hears the assistant (the first frame with sound), stays on the line
 * for `holdMs` after that, and hangs up itself; meanwhile it stamps the arrival of every audio frame
 * so a test can tell a call that went on to its caller's hang-up from one cut or stalled.
 */

export type Api = ReturnType<typeof client>;
export type Channel = "web" | "phone" | "sip";

/** A frame whose RMS (16-bit scale) reaches this carries sound (the engine's own bar is 100). */
const SOUND_RMS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CallerResult {
  channel: Channel;
  /** Who the caller is: the call id (web), the From number (phone, SIP). */
  key: string;
  /** The call log's id when the caller knows it (web). */
  callId: string | null;
  /** The node that ran the call, as the socket URL (web, phone) or the RTP source (SIP) tells. */
  node: string | null;
  /** performance.now() of the first frame with sound; null if the assistant was never heard. */
  heardAt: number | null;
  /** performance.now() when the caller hung up; null when the far end ended the call first. */
  hungUpAt: number | null;
  /** Longest time between two audio frames from the first sound to the hang-up (ms). */
  longestGapMs: number;
  /** How much of that gap this process itself got no CPU (the machine, not the call). */
  gapStarvedMs: number;
  /** performance.now() where that gap starts. */
  gapAt: number;
  /** Set when the far end ended the call (or it failed) before the caller hung up: what happened. */
  cut: string | null;
  /** What the call's end looked like from the caller's side (close code, end message, sipp's exit). */
  ending: string;
}

/** A tick of the starvation watch: when it ran and this process's CPU time (ms) by then. */
interface Tick {
  at: number;
  cpuMs: number;
}

const TICK_MS = 20;
/** A tick this late counts as a stall worth looking at. */
const STALL_MS = 250;
const ticks: Tick[] = [];
let ticker: NodeJS.Timeout | null = null;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Milliseconds between `from` and `to` in which this process got no CPU at all (late ticks with no
 * CPU time spent, as support/audio-gaps.ts counts them): the machine's other work had it, so the
 * caller could not read its socket either. Such a gap measures the machine, not the call.
 */
function starved(from: number, to: number): number {
  let total = 0;
  for (let i = 1; i < ticks.length; i += 1) {
    const a = ticks[i - 1] as Tick;
    const b = ticks[i] as Tick;
    if (b.at <= from || a.at >= to) continue;
    const wall = b.at - a.at;
    if (wall < STALL_MS) continue;
    const idle = Math.max(0, wall - TICK_MS - (b.cpuMs - a.cpuMs));
    total += idle * ((Math.min(b.at, to) - Math.max(a.at, from)) / wall);
  }
  return total;
}

function watchStarvation(): void {
  if (ticker) return;
  ticks.push({ at: performance.now(), cpuMs: cpuMs() });
  ticker = setInterval(() => {
    ticks.push({ at: performance.now(), cpuMs: cpuMs() });
    // An hour of ticks is plenty for any test.
    if (ticks.length > 200_000) ticks.splice(0, 100_000);
  }, TICK_MS);
  ticker.unref();
}

/** The longest stretch without an audio frame, and how much of it this process was starved of CPU. */
export interface Gap {
  ms: number;
  starvedMs: number;
  /** performance.now() where it starts. */
  at: number;
}

const gapFields = (gap: Gap | null) => ({
  longestGapMs: gap?.ms ?? 0,
  gapStarvedMs: gap?.starvedMs ?? 0,
  gapAt: gap?.at ?? 0,
});

/** Frame arrival times with their loudness: the caller's ear on any transport. */
class Ear {
  private readonly frames: { at: number; rms: number }[] = [];
  private waiters = new Set<() => void>();

  constructor() {
    watchStarvation();
  }

  hear(rms: number): void {
    this.frames.push({ at: performance.now(), rms });
    for (const wake of this.waiters) wake();
  }

  /** When the last frame arrived; null before any. */
  get lastAt(): number | null {
    return this.frames.at(-1)?.at ?? null;
  }

  get heardAt(): number | null {
    return this.frames.find((f) => f.rms >= SOUND_RMS)?.at ?? null;
  }

  /**
   * The longest time between frames from `from` to `to`, the ends included (a stream that stopped
   * shows), less the time this process was starved in it: the gap the call itself made.
   */
  longestGap(from: number, to: number): Gap {
    let previous = from;
    let gap: Gap = { ms: 0, starvedMs: 0, at: from };
    const consider = (at: number) => {
      const starvedMs = starved(previous, at);
      if (at - previous - starvedMs > gap.ms - gap.starvedMs) gap = { ms: at - previous, starvedMs, at: previous };
      previous = at;
    };
    for (const frame of this.frames) if (frame.at >= from && frame.at <= to) consider(frame.at);
    consider(to);
    return gap;
  }

  /** Resolves when a frame with sound has arrived, or `stop()` holds (then null). */
  waitForSound(timeoutMs: number, stop: () => boolean): Promise<number | null> {
    return new Promise((resolve) => {
      const check = () => {
        const at = this.heardAt;
        if (at === null && !stop()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(at);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        resolve(this.heardAt);
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Wakes the waiters (the line closed). */
  poke(): void {
    for (const wake of this.waiters) wake();
  }
}

function pcmRms(bytes: Buffer): number {
  const samples = Math.floor(bytes.length / 2);
  if (samples === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples; i += 1) {
    const s = bytes.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / samples);
}

function samplesRms(samples: Int16Array | number[]): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

/** How a caller behaves once it hears the assistant. */
export interface Hold {
  /** How long it stays on after the first sound before hanging up (ms). */
  holdMs: number;
  /** How long it waits for the first sound before giving up (ms). */
  answerTimeoutMs?: number;
}

const wsBase = (base: string) => base.replace(/^http/, "ws");
const routedNode = (url: string, kind: "realtime" | "stream") =>
  url.match(kind === "realtime" ? /\/realtime\/([a-z0-9-]+)(?:\?|$)/ : /\/stream\/([a-z0-9-]+)(?:\?|$)/)?.[1] ?? null;

/**
 * A browser call through `base` (the cluster's URL): POST /agents/{id}/call, a room token, and the
 * realtime socket at the URL the token came with (the holder's routing key in it). The caller types
 * `say` once the greeting is heard (a typed turn: no transcriber needed), and hangs up after holdMs.
 */
export async function browserCall(
  base: string,
  api: Api,
  agentId: string,
  hold: Hold & { say?: string; identity?: string },
): Promise<CallerResult> {
  const started = await api("POST", `/agents/${agentId}/call`);
  if (started.status !== 201) throw new Error(`start call failed: ${started.status} ${JSON.stringify(started.body)}`);
  const { room, call_id: callId } = StartCallResponse.parse(started.body);
  const query = new URLSearchParams({
    room_name: room.name,
    user_identity: hold.identity ?? `browser-${randomBytes(4).toString("hex")}`,
    name: "Tess",
  });
  const granted = await api("GET", `/agents/room/generate_room_token?${query}`);
  if (granted.status !== 200) throw new Error(`room token failed: ${granted.status} ${JSON.stringify(granted.body)}`);
  const grant = RoomTokenResponse.parse(granted.body);
  const socket = new WebSocket(`${wsBase(base)}${grant.url}?token=${encodeURIComponent(grant.accessToken)}`);
  const ear = new Ear();
  let endMessage: string | null = null;
  let closed: { code: number; reason: string } | null = null;
  let hungUpAt: number | null = null;
  socket.on("message", (data, isBinary) => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    if (isBinary) return ear.hear(pcmRms(bytes));
    const message = JSON.parse(bytes.toString("utf8")) as { type: string; reason?: string };
    if (message.type === "end") endMessage = message.reason ?? "";
  });
  const done = new Promise<void>((resolve) =>
    socket.on("close", (code, reason) => {
      closed = { code, reason: reason.toString("utf8") };
      ear.poke();
      resolve();
    }),
  );
  socket.on("error", () => ear.poke());
  const heardAt = await ear.waitForSound(hold.answerTimeoutMs ?? 90_000, () => closed !== null);
  if (heardAt !== null && closed === null) {
    if (hold.say) socket.send(JSON.stringify({ type: "text", text: hold.say }));
    await Promise.race([sleep(hold.holdMs), done]);
  }
  if (closed === null) {
    hungUpAt = performance.now();
    socket.send(JSON.stringify({ type: "hangup" }));
    await Promise.race([done, sleep(30_000)]);
    if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
  }
  const final = closed as { code: number; reason: string } | null;
  const ending = `close ${final?.code ?? "none"} ${final?.reason ?? ""}; end ${endMessage ?? "none"}`;
  return {
    channel: "web",
    key: callId,
    callId,
    node: routedNode(grant.url, "realtime"),
    heardAt,
    hungUpAt,
    ...gapFields(heardAt === null ? null : ear.longestGap(heardAt, hungUpAt ?? performance.now())),
    cut: hungUpAt === null ? `ended before the caller hung up (${ending})` : heardAt === null ? "never heard" : null,
    ending,
  };
}

// ── Twilio media streams ─────────────────────────────────────────────────────

export interface TwilioLine {
  accountSid: string;
  authToken: string;
  /** The Parley number (imported, with an inbound assistant). */
  to: string;
}

const MULAW_SILENCE = 0xff;

function mulawRms(payload: Buffer): number {
  if (payload.length === 0) return 0;
  let sum = 0;
  for (const byte of payload) {
    const u = ~byte & 0xff;
    const exponent = (u >> 4) & 0x07;
    const magnitude = (((u & 0x0f) << 3) + 0x84) << exponent;
    const sample = u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
    sum += sample * sample;
  }
  return Math.sqrt(sum / payload.length);
}

/**
 * A phone call as Twilio places it, through `publicUrl` (the cluster's URL, every node's
 * PUBLIC_URL): the signed voice webhook, then the <Stream url> of the TwiML opened as a Media Stream
 * — `connected`, `start`, a silent `media` frame every 20 ms, marks answered once played — and a
 * `stop` when the caller hangs up.
 */
export async function twilioCall(publicUrl: string, line: TwilioLine, from: string, hold: Hold): Promise<CallerResult> {
  const callSid = `CA${randomBytes(16).toString("hex")}`;
  const { voiceUrl } = webhookUrlsFor(publicUrl, "twilio");
  const params: Record<string, string> = {
    AccountSid: line.accountSid,
    CallSid: callSid,
    From: from,
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
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  const socket = new WebSocket(stream.url);
  const ear = new Ear();
  const silence = Buffer.alloc(160, MULAW_SILENCE).toString("base64");
  let sequence = 0;
  let framesSent = 0;
  let origin = 0;
  let playoutEndsAt = 0;
  const marks: NodeJS.Timeout[] = [];
  let closed: { code: number; reason: string } | null = null;
  const send = (message: Record<string, unknown>) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    sequence += 1;
    socket.send(JSON.stringify({ ...message, sequenceNumber: String(sequence), streamSid }));
  };
  // One silent frame per 20 ms of wall clock since the stream started, caught up if a tick came late.
  const ticker = setInterval(() => {
    if (origin === 0) return;
    const due = Math.floor((performance.now() - origin) / 20);
    while (framesSent < due) {
      framesSent += 1;
      send({
        event: "media",
        media: { track: "inbound", chunk: String(framesSent), timestamp: String(framesSent * 20), payload: silence },
      });
    }
  }, 10);
  socket.on("open", () => {
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
    origin = performance.now();
  });
  socket.on("message", (data) => {
    let message: { event?: string; media?: { payload?: string }; mark?: { name?: string } };
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (message.event === "media" && typeof message.media?.payload === "string") {
      const payload = Buffer.from(message.media.payload, "base64");
      const now = performance.now();
      playoutEndsAt = Math.max(playoutEndsAt, now) + payload.length / 8;
      ear.hear(mulawRms(payload));
    } else if (message.event === "mark" && typeof message.mark?.name === "string") {
      const name = message.mark.name;
      marks.push(
        setTimeout(() => send({ event: "mark", mark: { name } }), Math.max(0, playoutEndsAt - performance.now())),
      );
    } else if (message.event === "clear") {
      playoutEndsAt = performance.now();
    }
  });
  const done = new Promise<void>((resolve) =>
    socket.on("close", (code, reason) => {
      closed = { code, reason: reason.toString("utf8") };
      ear.poke();
      resolve();
    }),
  );
  socket.on("error", () => ear.poke());
  let hungUpAt: number | null = null;
  try {
    const heardAt = await ear.waitForSound(hold.answerTimeoutMs ?? 90_000, () => closed !== null);
    if (heardAt !== null && closed === null) await Promise.race([sleep(hold.holdMs), done]);
    if (closed === null) {
      hungUpAt = performance.now();
      send({ event: "stop", stop: { accountSid: line.accountSid, callSid } });
      socket.close(1000, "Caller hung up");
      await Promise.race([done, sleep(10_000)]);
    }
    const final = closed as { code: number; reason: string } | null;
    const ending = `close ${final?.code ?? "none"} ${final?.reason ?? ""}`;
    return {
      channel: "phone",
      key: from,
      callId: null,
      node: routedNode(stream.url, "stream"),
      heardAt,
      hungUpAt,
      ...gapFields(heardAt === null ? null : ear.longestGap(heardAt, hungUpAt ?? performance.now())),
      cut: hungUpAt === null ? `ended before the caller hung up (${ending})` : heardAt === null ? "never heard" : null,
      ending,
    };
  } finally {
    clearInterval(ticker);
    for (const mark of marks) clearTimeout(mark);
    if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
  }
}

// ── SIP ──────────────────────────────────────────────────────────────────────

/** Where a SIP call goes: the proxy (Kamailio) or a node, and the trunk number dialled. */
export interface SipTarget {
  host: string;
  port: number;
  /** The trunk number (its allowed_ips include the proxy's address). */
  number: string;
  /** Which node owns an RTP port (each node has its own range). */
  nodeOfRtpPort(port: number): string | null;
}

/** The caller's media end: records Parley's RTP (arrival, loudness, source) and sends silence back. */
class RtpEnd {
  private readonly socket: Socket = createSocket("udp4");
  readonly ear = new Ear();
  source: { address: string; port: number } | null = null;
  private sender: NodeJS.Timeout | null = null;

  async open(): Promise<number> {
    this.socket.on("message", (data, info) => {
      const packet = parseRtp(data);
      if (packet?.payloadType !== 0) return;
      if (!this.source) {
        this.source = { address: info.address, port: info.port };
        this.startSending();
      }
      this.ear.hear(samplesRms(g711Decode("PCMU", packet.payload)));
    });
    await new Promise<void>((resolve) => this.socket.bind(0, "127.0.0.1", resolve));
    return this.socket.address().port;
  }

  /** A phone sends its (quiet) line back every 20 ms from where it receives. */
  private startSending(): void {
    const header = Buffer.alloc(12);
    const payload = Buffer.alloc(160, MULAW_SILENCE);
    let sequence = 1;
    let timestamp = 0;
    this.sender = setInterval(() => {
      const to = this.source;
      if (!to) return;
      header[0] = 0x80;
      header[1] = sequence === 1 ? 0x80 : 0x00;
      header.writeUInt16BE(sequence & 0xffff, 2);
      header.writeUInt32BE(timestamp >>> 0, 4);
      header.writeUInt32BE(0x5151, 8);
      sequence += 1;
      timestamp += 160;
      this.socket.send(Buffer.concat([header, payload]), to.port, to.address);
    }, 20);
  }

  close(): void {
    if (this.sender) clearInterval(this.sender);
    this.socket.close();
  }
}

/** A sipp scenario: INVITE (no auth: the trunk admits the proxy's address), ACK, a pause, then our BYE. */
function hangingUpCaller(from: string, to: string, sdp: string, pauseMs: number): string {
  const body = sdp
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Parley cluster caller">
  <send retrans="500">
    <![CDATA[
      INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:caller@[local_ip]:[local_port];transport=[transport]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

${body}
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="183" optional="true"/>
  <recv response="200" rrs="true"/>
  <send>
    <![CDATA[
      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 1 ACK
      [routes]
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <pause milliseconds="${pauseMs}"/>
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 2 BYE
      [routes]
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200"/>
</scenario>
`;
}

/**
 * Runs one sipp call of `scenario`; resolves with its exit code and, when it failed, the reason
 * from its error trace (e.g. "while expecting '200' (index 8), received 'SIP/2.0 404 Not here'").
 */
function runSippCall(scenario: string, args: string[], timeoutSeconds: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-cluster-sipp-"));
  writeFileSync(path.join(dir, "scenario.xml"), scenario);
  const child = spawn(
    "sipp",
    [
      "-sf",
      "scenario.xml",
      "-m",
      "1",
      "-nostdin",
      "-timeout",
      `${timeoutSeconds}s`,
      "-timeout_error",
      "-trace_err",
      // A 180 can come after the 200: Kamailio's workers forward the two at once, in either order.
      // A phone drops a provisional response to a call already answered; sipp by default aborts the
      // call on it (and optional="global" would jump the scenario back to the 180 and wait for a
      // second 200). With abortunexp off, sipp logs the stray message and carries on.
      "-default_behaviors",
      "all,-abortunexp",
      ...args,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "ignore"] },
  );
  const done = new Promise<{ code: number | null; reason: string }>((resolve) =>
    child.once("exit", (code) => {
      const errors = readdirSync(dir).find((f) => f.endsWith("_errors.log"));
      const trace = errors ? readFileSync(path.join(dir, errors), "utf8") : "";
      const reason =
        trace.match(/(Aborting call[^\n]*\n[^\n]*|[^\n]*(timeout|Timeout)[^\n]*)/)?.[0] ?? trace.slice(-300);
      resolve({ code, reason: `${reason.replace(/\s+/g, " ").trim()} (trace in ${dir})` });
    }),
  );
  return { done, stop: () => void (child.exitCode === null && child.kill("SIGKILL")) };
}

const sdpFor = (mediaPort: number) =>
  [
    "v=0",
    "o=sipp 1 1 IN IP4 127.0.0.1",
    "s=-",
    "c=IN IP4 127.0.0.1",
    "t=0 0",
    `m=audio ${mediaPort} RTP/AVP 0 101`,
    "a=rtpmap:0 PCMU/8000",
    "a=rtpmap:101 telephone-event/8000",
    "a=fmtp:101 0-16",
    "a=sendrecv",
    "",
  ].join("\n");

/**
 * A SIP call from `fromNumber` to the trunk number through `target` (Kamailio): sipp sends the
 * INVITE and, `pauseMs` after the answer, the BYE; our RTP socket hears the assistant.
 */
export async function sipCall(target: SipTarget, fromNumber: string, hold: Hold): Promise<CallerResult> {
  const media = new RtpEnd();
  const mediaPort = await media.open();
  const answeredAt = performance.now();
  const sipp = runSippCall(
    hangingUpCaller(
      `<sip:${fromNumber}@carrier.test>`,
      `<sip:${target.number}@parley.test>`,
      sdpFor(mediaPort),
      hold.holdMs + 3_000,
    ),
    [
      `${target.host}:${target.port}`,
      "-i",
      "127.0.0.1",
      "-p",
      String(await freeUdpPort()),
      "-s",
      target.number.replace(/^\+/, ""),
      "-recv_timeout",
      "60000",
      "-trace_msg",
    ],
    Math.ceil((hold.holdMs + (hold.answerTimeoutMs ?? 90_000)) / 1000) + 30,
  );
  try {
    const heardAt = await media.ear.waitForSound(hold.answerTimeoutMs ?? 90_000, () => false);
    const result = await sipp.done;
    const ended = performance.now();
    const ok = result.code === 0;
    return {
      channel: "sip",
      key: fromNumber,
      callId: null,
      node: media.source ? target.nodeOfRtpPort(media.source.port) : null,
      heardAt,
      // sipp sent its BYE at the end of the pause and got the 200 (exit 0).
      hungUpAt: ok ? ended : null,
      // Parley's RTP stops at the BYE: the gaps that count are those up to its last packet.
      ...gapFields(heardAt === null ? null : media.ear.longestGap(heardAt, media.ear.lastAt ?? heardAt)),
      cut: !ok ? `sipp exited ${result.code}: ${result.reason}` : heardAt === null ? "never heard" : null,
      ending: `sipp exit ${result.code} after ${Math.round(ended - answeredAt)} ms`,
    };
  } finally {
    sipp.stop();
    media.close();
  }
}
