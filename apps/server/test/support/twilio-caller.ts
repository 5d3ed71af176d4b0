import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { callerSpeech, frameRms } from "@parley/engine/testing/telephony/audio-checks";
import { MulawCodec } from "@parley/engine/testing/telephony/mulaw-json-wire";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import { webhookUrlsFor } from "../../src/modules/phone-numbers/service.ts";
import type { CallerReport, CallerScript } from "./twilio-caller-process.ts";

/**
 * Rings a Parley number the way Twilio does — a signed voice webhook, then the <Stream> of the
 * TwiML it answers — and runs the caller in its own process (twilio-caller-process.ts), so the
 * wait it measures is wall clock the server's event loop cannot bend.
 */

/** The server's own threshold for an audible frame (about -50 dBFS), used for both ends of the wait. */
export const AUDIBLE_RMS = 100;

export interface TwilioCallOptions {
  publicUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  to: string;
  /** What the caller says once the greeting has ended. */
  line: string;
  /** Runs (in this process) this many frames before the caller's last voiced frame is sent. */
  speechEnding?: { framesBefore: number; run: () => void };
}

export interface TwilioCallResult {
  callSid: string;
  report: Exclude<CallerReport, { type: "speech-ending" }>;
}

const attribute = (element: string, name: string) => element.match(new RegExp(`${name}="([^"]*)"`))?.[1];
const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The <Stream url> and its <Parameter>s from the voice webhook's TwiML. */
export function streamOfTwiml(twiml: string): { url: string; parameters: Record<string, string> } {
  const stream = twiml.match(/<Stream\b[^>]*>/)?.[0];
  const url = stream ? attribute(stream, "url") : undefined;
  if (!url) throw new Error(`the TwiML opens no stream: ${twiml}`);
  const parameters: Record<string, string> = {};
  for (const element of twiml.match(/<Parameter\b[^>]*\/>/g) ?? []) {
    const name = attribute(element, "name");
    const value = attribute(element, "value");
    if (name !== undefined && value !== undefined) parameters[unescapeXml(name)] = unescapeXml(value);
  }
  return { url: unescapeXml(url), parameters };
}

/** The caller's line as 20 ms frames of base64 μ-law, and the last frame with speech in it. */
function speechFrames(line: string): { frames: string[]; lastVoiced: number } {
  const pcm = callerSpeech(line);
  const codec = new MulawCodec();
  const frames: string[] = [];
  for (let i = 0; i + 320 <= pcm.length; i += 320) frames.push(codec.encode(pcm.subarray(i, i + 320)));
  const levels = frameRms(pcm);
  let lastVoiced = -1;
  levels.forEach((level, i) => {
    if (level >= AUDIBLE_RMS) lastVoiced = i;
  });
  if (lastVoiced < 0) throw new Error("the caller's line has no audible frame");
  return { frames, lastVoiced };
}

/** Places the call and resolves with what the caller measured (the caller hangs up after the reply starts). */
export async function callLikeTwilio(options: TwilioCallOptions, timeoutMs = 90_000): Promise<TwilioCallResult> {
  const callSid = `CA${randomBytes(16).toString("hex")}`;
  const { voiceUrl } = webhookUrlsFor(options.publicUrl, "twilio");
  const params: Record<string, string> = {
    AccountSid: options.accountSid,
    CallSid: callSid,
    From: options.from,
    To: options.to,
    CallStatus: "ringing",
    Direction: "inbound",
    ApiVersion: "2010-04-01",
  };
  const res = await fetch(voiceUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(options.authToken, voiceUrl, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  const twiml = await res.text();
  if (res.status !== 200) throw new Error(`the voice webhook answered ${res.status}: ${twiml}`);
  const stream = streamOfTwiml(twiml);
  const speech = speechFrames(options.line);
  const script: CallerScript = {
    url: stream.url,
    customParameters: stream.parameters,
    accountSid: options.accountSid,
    callSid,
    speechFrames: speech.frames,
    lastVoicedFrame: speech.lastVoiced,
    audibleRms: AUDIBLE_RMS,
    signalFramesBeforeEnd: options.speechEnding?.framesBefore,
  };
  const child = fork(path.join(import.meta.dirname, "twilio-caller-process.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const report = await new Promise<TwilioCallResult["report"]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the caller measured nothing in ${timeoutMs} ms`)), timeoutMs);
      child.on("message", (message: CallerReport) => {
        if (message.type === "speech-ending") return options.speechEnding?.run();
        clearTimeout(timer);
        resolve(message);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the caller process exited (${code}) before reporting`));
      });
      child.send(script);
    });
    return { callSid, report };
  } finally {
    if (child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve();
        }, 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
