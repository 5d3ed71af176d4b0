import { randomBytes } from "node:crypto";
import WebSocket from "ws";

/**
 * A phone caller on a Twilio Media Stream, in a process of its own so that its clock is not the
 * server's event loop: whatever blocks the server cannot move when this caller sends or hears.
 * Written from Twilio's Media Streams docs ("WebSocket Messages"): it sends `connected`, `start`
 * (with the <Parameter>s of the <Stream>), then one `media` message every 20 ms of wall clock —
 * base64 8 kHz μ-law, track "inbound", numbered chunks and millisecond timestamps — answers each
 * `mark` once the audio queued before it has played, drops its queue on `clear`, and ends with
 * `stop`. It waits for the greeting to finish, says its line, and measures from the send of its
 * last voiced frame to the first audible `media` frame of the reply.
 *
 * Started by twilio-caller.ts with `fork`; it reads a CallerScript from IPC and answers CallerReport.
 */

export interface CallerScript {
  url: string;
  customParameters: Record<string, string>;
  accountSid: string;
  callSid: string;
  /** The caller's line as 8 kHz μ-law, base64, one 20 ms frame (160 bytes) each. */
  speechFrames: string[];
  /** Index in speechFrames of the last frame with speech in it (the rest is the voice's tail). */
  lastVoicedFrame: number;
  /** RMS (16-bit scale) from which a received frame counts as heard. */
  audibleRms: number;
  /** Tells the parent (a `speech-ending` message) this many frames before the last voiced one goes out. */
  signalFramesBeforeEnd?: number;
}

export type CallerReport =
  | {
      type: "measured";
      /** Wall clock (ms) from sending the last voiced frame to receiving the first audible reply frame. */
      waitMs: number;
      greetingHeard: boolean;
      framesSent: number;
    }
  | { type: "failed"; message: string }
  /** The caller's last voiced frame goes out in `signalFramesBeforeEnd` frames. */
  | { type: "speech-ending" };

const FRAME_MS = 20;
const FRAME_BYTES = 160;
/** Received silence after the greeting that tells the caller it is their turn (300 ms). */
const QUIET_FRAMES_BEFORE_SPEAKING = 15;
/** μ-law of a zero sample: what a quiet line carries. */
const MULAW_SILENCE = 0xff;

/** G.711 μ-law byte to a 16-bit sample (ITU-T G.711, as Twilio's audio/x-mulaw is). */
function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << exponent;
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

function rmsOfMulaw(payload: Buffer): number {
  if (payload.length === 0) return 0;
  let sum = 0;
  for (const byte of payload) {
    const sample = mulawToLinear(byte);
    sum += sample * sample;
  }
  return Math.sqrt(sum / payload.length);
}

function run(script: CallerScript, report: (message: CallerReport) => void): void {
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  const socket = new WebSocket(script.url);
  const silence = Buffer.alloc(FRAME_BYTES, MULAW_SILENCE).toString("base64");
  let sequence = 0;
  let chunk = 0;
  let origin = 0;
  let framesSent = 0;
  let phase: "greeting" | "speaking" | "waiting" | "done" = "greeting";
  let greetingHeard = false;
  let quietFrames = 0;
  let speechIndex = 0;
  let lastVoicedSentAt = 0;
  /** When the audio queued so far will have played, and the marks waiting for it. */
  let playoutEndsAt = 0;
  const pendingMarks: { name: string; timer: NodeJS.Timeout }[] = [];

  const send = (message: Record<string, unknown>) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    sequence += 1;
    socket.send(JSON.stringify({ ...message, sequenceNumber: String(sequence), streamSid }));
  };
  const finish = (message: CallerReport) => {
    if (phase === "done") return;
    phase = "done";
    clearInterval(ticker);
    for (const mark of pendingMarks) clearTimeout(mark.timer);
    report(message);
    send({ event: "stop", stop: { accountSid: script.accountSid, callSid: script.callSid } });
    socket.close(1000, "Caller hung up");
  };

  const nextFrame = (): string => {
    if (phase !== "speaking") return silence;
    const frame = script.speechFrames[speechIndex] ?? silence;
    if (speechIndex === script.lastVoicedFrame) lastVoicedSentAt = performance.now();
    const signalAt = script.signalFramesBeforeEnd;
    if (signalAt !== undefined && speechIndex === script.lastVoicedFrame - signalAt) report({ type: "speech-ending" });
    speechIndex += 1;
    if (speechIndex >= script.speechFrames.length) phase = "waiting";
    return frame;
  };

  // One frame per 20 ms of wall clock since the stream started, caught up if a tick came late.
  const tick = () => {
    const due = Math.floor((performance.now() - origin) / FRAME_MS);
    while (framesSent < due && phase !== "done") {
      const payload = nextFrame();
      chunk += 1;
      send({
        event: "media",
        media: { track: "inbound", chunk: String(chunk), timestamp: String(framesSent * FRAME_MS), payload },
      });
      framesSent += 1;
    }
  };
  let ticker: NodeJS.Timeout;

  const onMedia = (payload: Buffer) => {
    const now = performance.now();
    playoutEndsAt = Math.max(playoutEndsAt, now) + (payload.length / 8000) * 1000;
    const audible = rmsOfMulaw(payload) >= script.audibleRms;
    if (phase === "greeting") {
      if (audible) {
        greetingHeard = true;
        quietFrames = 0;
      } else if (greetingHeard && ++quietFrames >= QUIET_FRAMES_BEFORE_SPEAKING) {
        phase = "speaking";
      }
    } else if (phase === "waiting" && audible) {
      finish({ type: "measured", waitMs: now - lastVoicedSentAt, greetingHeard, framesSent });
    }
  };

  socket.on("open", () => {
    socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
    send({
      event: "start",
      start: {
        accountSid: script.accountSid,
        streamSid,
        callSid: script.callSid,
        tracks: ["inbound"],
        customParameters: script.customParameters,
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
      },
    });
    origin = performance.now();
    ticker = setInterval(tick, 5);
  });
  socket.on("message", (data, isBinary) => {
    if (isBinary) return;
    let message: { event?: string; media?: { payload?: string }; mark?: { name?: string } };
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (message.event === "media" && typeof message.media?.payload === "string") {
      onMedia(Buffer.from(message.media.payload, "base64"));
    } else if (message.event === "mark" && typeof message.mark?.name === "string") {
      // Twilio answers a mark once the audio sent before it has played.
      const name = message.mark.name;
      const timer = setTimeout(
        () => send({ event: "mark", mark: { name } }),
        Math.max(0, playoutEndsAt - performance.now()),
      );
      pendingMarks.push({ name, timer });
    } else if (message.event === "clear") {
      // A clear drops the queued audio and Twilio sends back every mark it dropped at once.
      playoutEndsAt = performance.now();
      for (const mark of pendingMarks.splice(0)) {
        clearTimeout(mark.timer);
        send({ event: "mark", mark: { name: mark.name } });
      }
    }
  });
  socket.on("close", (code, reason) => {
    if (phase !== "done")
      finish({ type: "failed", message: `the stream closed (${code} ${reason}) in phase ${phase}` });
  });
  socket.on("error", (error) => finish({ type: "failed", message: `stream socket error: ${error.message}` }));
}

process.once("message", (script: CallerScript) => {
  run(script, (message) => {
    if (message.type === "speech-ending") {
      process.send?.(message);
      return;
    }
    process.send?.(message, () => {
      // The report is out: leave a moment for the stop message and close frame, then exit.
      setTimeout(() => process.exit(0), 200).unref();
    });
  });
});
