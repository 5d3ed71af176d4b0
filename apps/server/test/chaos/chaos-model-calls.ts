import { CallLog } from "@parley/contract";
import { callerSpeech } from "@parley/engine/testing/telephony/audio-checks";
import { afterAll, beforeAll, expect } from "vitest";
import { z } from "zod";
import { call, signedInUser, type TestApp } from "../harness.ts";
import { KEYLESS_PROVIDERS } from "../support/assistant-fields.ts";
import { AudioGapMeter, type Gap } from "../support/audio-gaps.ts";
import { createAssistant } from "../support/calls.ts";
import { type LoopbackServer, type ReceivedRequest, startReceiver } from "../support/loopback.ts";
import { closedCallLog, joinCall, startListeningApp } from "../support/realtime-calls.ts";
import type { RealtimeClient } from "../support/realtime-client.ts";
import { until } from "../support/until.ts";

/**
 * What the model and tool chaos tests share: one listening app per file with a receiver of its
 * call.ended webhooks, and a call on the browser's realtime socket whose assistant audio is timed on
 * the wire (the keyless local voice speaks, the caller types its turns).
 */

/** The bound of the acceptance: no longer silence after the caller's turn ends. */
export const MAX_GAP_MS = 4_000;
export const RECOVERY = "Sorry, I'm having trouble — one moment.";
/** A short goodbye keeps each call (and the suite) short; the default one is five seconds long. */
export const GOODBYE = "Sorry, please call back later. Goodbye.";

export interface ChaosApp {
  t: TestApp;
  /** Every webhook delivery the file's workspaces subscribed to. */
  hooks: LoopbackServer & { received: ReceivedRequest[] };
}

/** The file's app and webhook receiver, started before its tests and closed after them. */
export function useChaosApp(): ChaosApp {
  const world = {} as ChaosApp;
  beforeAll(async () => {
    const [t, hooks] = await Promise.all([
      startListeningApp(),
      startReceiver((_request, res) => res.writeHead(200).end()),
    ]);
    Object.assign(world, { t, hooks });
  });
  afterAll(async () => {
    await world.t?.close();
    await world.hooks?.close();
  });
  return world;
}

/**
 * A new workspace subscribed to call.ended, with an assistant on the keyless voice and ears that
 * waits for the caller to speak first (no greeting to sit through) and says a short goodbye.
 */
export async function chaosAssistant(world: ChaosApp, fields: Record<string, unknown>) {
  const { t } = world;
  const user = await signedInUser(t);
  const hook = await call(t, "POST", "/api/v1/webhooks", {
    token: user.token,
    body: { url: `${world.hooks.origin}/hooks`, events: ["call.ended"] },
  });
  if (hook.statusCode !== 201) throw new Error(`webhook subscription failed: ${hook.statusCode} ${hook.body}`);
  const { fault_policy: policy, ...rest } = fields;
  const agentId = await createAssistant(t, user.token, {
    name: "Chaos desk",
    first_message: "",
    first_speaker: "user",
    ...KEYLESS_PROVIDERS,
    fault_policy: { goodbye_message: GOODBYE, ...(policy as object | undefined) },
    ...rest,
  });
  return { token: user.token, workspaceId: user.workspaceId, agentId };
}

/** The fields of an assistant whose model is the OpenAI-compatible server at `baseUrl`. */
export const modelAt = (baseUrl: string) => ({ llm_provider_config: { model: "chaos", base_url: baseUrl } });

export interface ChaosCall {
  client: RealtimeClient;
  meter: AudioGapMeter;
  callId: string;
  /** Types the caller's turn; returns the moment it was sent (the end of the caller's turn). */
  say(text: string): number;
  /**
   * Speaks the caller's turn into the microphone (espeak's voice, one 20 ms frame per 20 ms, quiet
   * frames after it until the call ends); resolves with when its last voiced frame went out.
   */
  speak(text: string): Promise<number>;
  /** The call's log once closed, and its call.ended webhook's call. */
  outcome(): Promise<{ log: CallLog; webhook: CallLog }>;
  hangUp(): Promise<void>;
}

/** Joins a call to the assistant and waits until it is ready to listen. */
export async function joinChaosCall(world: ChaosApp, user: { token: string; agentId: string }): Promise<ChaosCall> {
  const { t } = world;
  const { client, callId } = await joinCall(t, user.token, user.agentId, { origin: "http://localhost:5173" });
  const meter = new AudioGapMeter(client.socket);
  await client.waitFor("ready", () => true, 60_000);
  return {
    client,
    meter,
    callId,
    say(text) {
      const at = meter.now();
      client.send({ type: "text", text });
      return at;
    },
    speak: (text) => speakInto(client, text),
    async outcome() {
      const log = await closedCallLog(t, user.token, callId);
      const webhook = await callEnded(world, callId);
      return { log, webhook };
    },
    async hangUp() {
      if (client.socket.readyState === client.socket.OPEN) client.send({ type: "hangup" });
      await client.closed;
    },
  };
}

/** A delivery of call.ended: the call log as GET /call-logs/{id} gives it. */
const CallEndedEvent = z.object({ type: z.string(), data: z.object({ call: CallLog.passthrough() }).passthrough() });

/** The call log carried by the call.ended webhook of `callId`. */
export async function callEnded(world: ChaosApp, callId: string): Promise<CallLog> {
  const events = await until(
    async () => world.hooks.received.map((r) => CallEndedEvent.parse(JSON.parse(r.body))),
    (list) => list.some((e) => e.type === "call.ended" && e.data.call.id === callId),
    `the call.ended webhook of ${callId}`,
  );
  const event = events.find((e) => e.type === "call.ended" && e.data.call.id === callId);
  return CallLog.parse(event?.data.call);
}

/** The fault events of a call log. */
export function faultsOf(log: CallLog) {
  return log.events.filter((e) => e.type === "fault");
}

/** The log and its webhook both name `reason` and hold a fault like `fault` (`kind` may list the kinds accepted). */
export function expectOutcome(
  outcome: { log: CallLog; webhook: CallLog },
  reason: string,
  fault: { stage: string; provider: string; kind?: string | string[]; action?: string },
) {
  const kinds = fault.kind === undefined ? undefined : [fault.kind].flat();
  for (const [where, log] of Object.entries(outcome)) {
    expect(log.end_reason, `${where}'s end reason`).toBe(reason);
    const faults = faultsOf(log);
    const found = faults.some(
      (f) =>
        f.stage === fault.stage &&
        f.provider === fault.provider &&
        (!kinds || kinds.includes(f.kind)) &&
        (!fault.action || f.action === fault.action),
    );
    expect(found, `${where}'s faults hold ${JSON.stringify(fault)}: ${JSON.stringify(faults)}`).toBe(true);
  }
}

/**
 * The fault kinds a test accepts for a request that failed as `kind`. When the test's process was
 * not running for a second or more, the first-token deadline's timer can fire before the answer
 * already waiting on the socket is read (timers run before I/O once the process resumes): the
 * request is then recorded as a timeout (reported to the engine's owner for issue 27).
 */
export function kindsFor(kind: string, gap: Gap): string[] {
  return gap.starvedMs >= 1000 ? [kind, "timeout"] : [kind];
}

/**
 * The longest silence the caller heard from the end of their turn until `to` (by default the start
 * of the last sound before the call's end message), and that there was sound at all.
 */
export function gapAfterTurn(c: ChaosCall, turnEnd: number, to?: number): Gap {
  const end = c.meter.messageAt((m) => m.type === "end") ?? c.meter.now();
  const sounds = c.meter.soundTimes(turnEnd, end);
  expect(sounds.length, "assistant audio after the caller's turn").toBeGreaterThan(0);
  return c.meter.longestGap(turnEnd, to ?? (sounds.at(-1) as number));
}

/**
 * Assistant lines the caller was shown after `from`, as they began (a line cut short by the
 * goodbye, like a recovery line, has no final transcript, only the one shown as it started).
 */
export function assistantLines(c: ChaosCall, from = 0): string[] {
  const lines = c.meter.messages
    .filter((m) => m.at >= from && m.message.type === "transcript" && m.message.role === "assistant")
    .map((m) => String(m.message.text));
  return [...new Set(lines)];
}

const FRAME_MS = 20;
const FRAME_SAMPLES = 320;

/** Sends `text` as speech in real time, then quiet frames until the socket closes; resolves at the end of speech. */
function speakInto(client: RealtimeClient, text: string): Promise<number> {
  const pcm = callerSpeech(text);
  const frames: Int16Array[] = [];
  for (let i = 0; i + FRAME_SAMPLES <= pcm.length; i += FRAME_SAMPLES) frames.push(pcm.slice(i, i + FRAME_SAMPLES));
  const loud = (f: Int16Array) => Math.sqrt(f.reduce((sum, v) => sum + v * v, 0) / f.length) >= 100;
  const lastVoiced = frames.findLastIndex(loud);
  const quiet = new Int16Array(FRAME_SAMPLES);
  const origin = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    const ticker = setInterval(() => {
      if (client.socket.readyState !== client.socket.OPEN) {
        clearInterval(ticker);
        return;
      }
      // Caught up frame by frame when a tick comes late, as a microphone's buffer would be.
      const due = Math.floor((performance.now() - origin) / FRAME_MS);
      for (; sent < due; sent += 1) {
        client.sendPcm(frames[sent] ?? quiet);
        if (sent === lastVoiced) resolve(performance.now());
      }
    }, 5);
    void client.closed.then(() => clearInterval(ticker));
  });
}

/** Prints the measured gap with PARLEY_CHAOS_REPORT=1 (for the suite's record of what callers heard). */
export function reportGap(what: string, gap: Gap): void {
  if (process.env.PARLEY_CHAOS_REPORT !== "1") return;
  console.info(
    `chaos gap: ${what}: ${Math.round(gap.ms)} ms (${Math.round(gap.starvedMs)} ms of it the process was not running)`,
  );
}

/**
 * The caller's longest silence stays under the bound. Time in which the test's process (server and
 * ear alike) was not scheduled at all is the machine's, not the call's, and is left out; the
 * server blocking its own thread is not (see audio-gaps.ts).
 */
export function expectGapUnderBound(gap: Gap): void {
  const heard = gap.ms - gap.starvedMs;
  expect(heard, `silence of ${Math.round(gap.ms)} ms, ${Math.round(gap.starvedMs)} ms of it starved`).toBeLessThan(
    MAX_GAP_MS,
  );
}

/** With PARLEY_CHAOS_DEBUG=1: what the caller heard and was shown after `from`, in ms from it. */
export function dumpTimeline(what: string, c: ChaosCall, from: number): void {
  if (process.env.PARLEY_CHAOS_DEBUG !== "1") return;
  const rel = (at: number) => Math.round(at - from);
  const sounds = c.meter.soundTimes(from);
  const runs: string[] = [];
  let start = sounds[0];
  for (let i = 1; i <= sounds.length; i += 1) {
    if (i === sounds.length || (sounds[i] as number) - (sounds[i - 1] as number) > 300) {
      runs.push(`${rel(start as number)}..${rel(sounds[i - 1] as number)}`);
      start = sounds[i];
    }
  }
  const shown = c.meter.messages
    .filter((m) => m.at >= from && m.message.type !== "turn_metrics")
    .map((m) => `${rel(m.at)} ${JSON.stringify(m.message)}`);
  console.info([`${what}: sound ${runs.join(" ")}`, ...shown].join("\n  "));
}
