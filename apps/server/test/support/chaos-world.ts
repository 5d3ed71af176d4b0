import { CallLog, FAULT_POLICY_DEFAULTS } from "@parley/contract";
import type { NetworkDeps } from "@parley/engine";
import { startFakeAssemblyAiStreaming } from "@parley/engine/testing/vendor-servers/fake-assemblyai-streaming";
import type { FakeWsServer } from "@parley/engine/testing/vendor-servers/ws-server";
import { afterAll, beforeAll, expect } from "vitest";
import { z } from "zod";
import { call, signedInUser, type TestApp } from "../harness.ts";
import { createAssistant } from "./calls.ts";
import { type CallerEar, callInBrowser } from "./chaos-caller.ts";
import { type PhoneLine, startPhoneLine } from "./chaos-phone-world.ts";
import { type ChaosStt, type SttFault, startChaosStt } from "./chaos-stt.ts";
import { type ChaosTts, startChaosTts, type TtsScenario } from "./chaos-tts.ts";
import { type LoopbackServer, type ReceivedRequest, startReceiver } from "./loopback.ts";
import { closedCallLog, startListeningApp } from "./realtime-calls.ts";
import { type ModelScript, type ScriptedLlm, startScriptedLlm } from "./scripted-llm.ts";
import { until } from "./until.ts";

/**
 * The world of the transcriber and voice chaos tests: a listening app with a scripted model, and
 * Deepgram's recogniser and voice as controllable doubles the app's network reaches instead of
 * api.deepgram.com. Each test signs in its own workspace and saves its own Deepgram key, which is
 * the scenario both doubles play for that workspace's calls, so tests run side by side.
 */

/** The bound of the acceptance: no longer silence after the caller's turn ends. */
export const MAX_GAP_MS = 4_000;
export const CALLER_LINE = "I would like to book a table for two please";
export const GREETING = "Hello, thanks for calling.";
export const REPLY = "Happy to help with that. What time would you like the table?";
/** What the assistant says while it recovers (the fault policy's default). */
export const RECOVERY = FAULT_POLICY_DEFAULTS.recovery_message;
/** Silence after the assistant's last sound that means it has finished (longer than any gap allowed). */
export const SETTLED_MS = 4_500;

export const chaosScript: ModelScript = () => ({ text: REPLY });

/** The vendor doubles of a chaos test file, and the route that sends an app's network to them. */
export interface ChaosDoubles {
  stt: ChaosStt;
  tts: ChaosTts;
  /** A working streaming recogniser of another vendor (AssemblyAI's double), for backups. */
  backupStt: FakeWsServer;
  route(base: NetworkDeps): NetworkDeps;
  close(): Promise<void>;
}

export interface ChaosWorld extends ChaosDoubles {
  app: TestApp;
  /** The scripted model of the browser calls' assistants. */
  llm: ScriptedLlm;
  /** The Twilio number, when the file asked for one. */
  phone: PhoneLine | null;
  /** How many of the file's calls run at once. */
  slots: CallSlots;
  /** Receives the call.ended webhook every workspace of the file subscribes to. */
  hooks: LoopbackServer & { received: ReceivedRequest[] };
}

/** The AssemblyAI key every workspace of the chaos tests saves for its backup recogniser. */
const BACKUP_STT_KEY = "aai-chaos-backup-key-0123456789";

/** A working cloud recogniser as a backup: AssemblyAI Universal Streaming (its double). */
export const CLOUD_STT = { provider: "assembly-ai", config: {} };

/** Deepgram's recogniser and voice as controllable doubles, and AssemblyAI's as a working backup. */
export async function startChaosDoubles(): Promise<ChaosDoubles> {
  const [stt, tts, backupStt] = await Promise.all([
    startChaosStt(),
    startChaosTts(),
    startFakeAssemblyAiStreaming({ apiKey: BACKUP_STT_KEY, transcript: CALLER_LINE }),
  ]);
  const routeAssemblyAi = (base: NetworkDeps): NetworkDeps => {
    const open = base.openWebSocket;
    if (!open) throw new Error("the app's network opens no WebSockets");
    return {
      ...base,
      openWebSocket: (url, options) =>
        open(url.replace(/^wss:\/\/streaming\.assemblyai\.com/, backupStt.baseUrl), options),
    };
  };
  return {
    stt,
    tts,
    backupStt,
    route: (base) => stt.route(tts.route(routeAssemblyAi(base))),
    async close() {
      await Promise.all([stt.close(), tts.close(), backupStt.close()]);
    },
  };
}

/**
 * The doubles, the scripted model and the app for one test file, routed together; closed after the
 * file. With `phone`, the app is a Twilio bridge's with that number on an assistant with these fields
 * (the Deepgram doubles and the greeting unless they say otherwise).
 */
export function useChaosWorld(
  options: { phone?: { number: string; assistant?: Record<string, unknown> }; callsAtOnce?: number } = {},
) {
  const world = { slots: new CallSlots(options.callsAtOnce ?? 2) } as ChaosWorld;
  beforeAll(async () => {
    const [doubles, llm, hooks] = await Promise.all([
      startChaosDoubles(),
      startScriptedLlm(chaosScript),
      startReceiver((_request, res) => res.writeHead(200).end()),
    ]);
    Object.assign(world, doubles, { llm, hooks, phone: null });
    const phone = options.phone;
    if (phone) {
      world.phone = await startPhoneLine({
        number: phone.number,
        assistant: { first_message: GREETING, ...DEEPGRAM_SPEECH, ...phone.assistant },
        saveKeys: (token, scenario) => saveChaosKeys(world.app, doubles, token, scenario),
      });
      world.app = world.phone.world.t;
      await subscribeCallEnded(world, world.phone.world.token);
    } else {
      world.app = await startListeningApp();
    }
    world.app.ctx.network = doubles.route(world.app.ctx.network);
  });
  afterAll(async () => {
    await (world.phone ? world.phone.close() : world.app?.close());
    await Promise.all([world.close?.(), world.llm?.close(), world.hooks?.close()]);
  });
  return world;
}

/**
 * Registers `scenario` with both Deepgram doubles under one new key and saves it, with the backup
 * recogniser's key, as the workspace's integrations; returns the key.
 */
export async function saveChaosKeys(
  t: TestApp,
  doubles: ChaosDoubles,
  token: string,
  scenario: { stt?: SttFault; tts?: TtsScenario },
): Promise<string> {
  const key = doubles.stt.key(scenario.stt ?? { type: "none" });
  doubles.tts.key(scenario.tts ?? { fault: { type: "none" } }, key);
  for (const [provider, apiKey] of [
    ["deepgram", key],
    ["assembly-ai", BACKUP_STT_KEY],
  ]) {
    const saved = await call(t, "PUT", `/api/v1/integrations/${provider}`, {
      token,
      body: { credentials: { api_key: apiKey } },
    });
    if (saved.statusCode !== 200)
      throw new Error(`saving the ${provider} key failed: ${saved.statusCode} ${saved.body}`);
  }
  return key;
}

/** Where the assistant of a scenario listens and speaks: Deepgram (the doubles) unless told otherwise. */
export interface ChaosAssistant {
  stt?: SttFault;
  tts?: TtsScenario;
  fallbacks?: { stt?: unknown[]; tts?: unknown[] };
  faultPolicy?: Record<string, unknown>;
  /** Other assistant fields (providers on "local" instead of Deepgram, say). */
  fields?: Record<string, unknown>;
}

/** The keyless recogniser and voice, as backups. */
export const LOCAL_STT = { provider: "local", config: {} };
export const LOCAL_VOICE = { provider: "local", config: { model: "espeak-ng", voice: "en-us" } };

/** An assistant's recogniser and voice on Deepgram (the doubles). */
export const DEEPGRAM_SPEECH = {
  stt_provider: "deepgram",
  stt_provider_config: {},
  tts_provider: "deepgram",
  tts_provider_config: { model: "aura-2", voice: "aura-2-thalia-en" },
};

/**
 * A new workspace whose Deepgram key plays `scenario` on both doubles, and its assistant on
 * Deepgram with the scenario's backups and fault policy.
 */
export async function chaosAssistant(world: ChaosWorld, scenario: ChaosAssistant) {
  const t: TestApp = world.app;
  const user = await signedInUser(t);
  const key = await saveChaosKeys(t, world, user.token, scenario);
  await subscribeCallEnded(world, user.token);
  const agentId = await createAssistant(t, user.token, {
    first_message: GREETING,
    llm_provider: "openai-compatible",
    llm_provider_config: { model: "scripted", base_url: world.llm.baseUrl },
    ...DEEPGRAM_SPEECH,
    fallback_providers: { llm: [], stt: scenario.fallbacks?.stt ?? [], tts: scenario.fallbacks?.tts ?? [] },
    ...(scenario.faultPolicy ? { fault_policy: scenario.faultPolicy } : {}),
    ...scenario.fields,
  });
  return { token: user.token, workspaceId: user.workspaceId, agentId, key };
}

/** Waits for the assistant's first sound after `from` and for it to finish (SETTLED_MS of quiet); its end. */
export async function heardUntilSettled(ear: CallerEar, from: number, what: string, timeoutMs = 40_000) {
  await ear.wait(() => ear.firstSoundAfter(from), `${what}: the first sound`, timeoutMs);
  return ear.wait(() => ear.quietAfter(from, SETTLED_MS), `${what}: its end`, timeoutMs);
}

/** Waits for the greeting to be heard and to end (700 ms of quiet). */
export async function greetingHeard(ear: CallerEar) {
  await ear.wait(() => ear.firstSoundAfter(0), "the greeting", 40_000);
  return ear.wait(() => ear.quietAfter(0, 700), "the greeting's end", 40_000);
}

/** The fault events of a call log. */
export function faultEvents(log: CallLog) {
  return log.events.filter((e) => e.type === "fault");
}

/** Checks the log holds a fault of `stage` with these fields (kind/action may be lists of accepted values). */
export function expectFault(
  log: CallLog,
  fault: { stage: string; provider: string; kind?: string | string[]; action?: string | string[] },
) {
  const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
  const kinds = list(fault.kind);
  const actions = list(fault.action);
  const found = faultEvents(log).some(
    (e) =>
      e.stage === fault.stage &&
      e.provider === fault.provider &&
      (!kinds || kinds.includes(e.kind)) &&
      (!actions || actions.includes(e.action)),
  );
  expect(found, `a ${JSON.stringify(fault)} fault in ${JSON.stringify(faultEvents(log))}`).toBe(true);
}

/**
 * Runs calls once fewer than `limit` are running, so tests declared concurrent measure the fault
 * and not a machine saturated by their own calls: the server, the callers and the doubles share one
 * event loop, and a local voice's synthesis holds it.
 */
export class CallSlots {
  private running = 0;
  private readonly queued: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queued.push(resolve));
    this.running += 1;
    try {
      return await call();
    } finally {
      this.running -= 1;
      this.queued.shift()?.();
    }
  }
}

/**
 * One browser call of a scenario: the greeting, the caller's line, the answer (until it settles),
 * then the caller hangs up. The longest silence the caller heard after their turn, and the log.
 */
export async function oneTurnCall(world: ChaosWorld, scenario: ChaosAssistant) {
  const { token, agentId, key } = await chaosAssistant(world, scenario);
  return world.slots.run(() => oneTurn(world, token, agentId, key));
}

async function oneTurn(world: ChaosWorld, token: string, agentId: string, key: string) {
  const caller = await callInBrowser(world.app, token, agentId);
  await greetingHeard(caller.ear);
  const turnEnded = await caller.say(CALLER_LINE);
  const settled = await heardUntilSettled(caller.ear, turnEnded, "the answer");
  const gap = caller.ear.longestGap(turnEnded, settled);
  await caller.hangUp();
  const log = await closedOutcome(world, token, caller.callId);
  if (process.env.CHAOS_DEBUG) {
    const rel = (x: number) => Math.round(x - turnEnded);
    console.info("DEBUG sounds", JSON.stringify(caller.ear.sounds.map((x) => [rel(x.from), rel(x.to)])));
    console.info("DEBUG log", JSON.stringify({ tm: log.turn_metrics, tr: log.transcript, ev: log.events }));
  }
  return { gap, log, caller, key, token };
}

/** Prints a case's measured gap and outcome, for the suite's report. */
export function reportCase(label: string, gap: { ms: number }, log: CallLog): void {
  console.info(
    `[chaos] ${label}: longest gap ${Math.round(gap.ms)} ms, end ${log.end_reason} (${log.status}), faults ${JSON.stringify(
      faultEvents(log).map((f) => [f.stage, f.provider, f.kind, f.action]),
    )}`,
  );
}

/** Subscribes the workspace of `token` to call.ended, delivered to the file's receiver. */
async function subscribeCallEnded(world: ChaosWorld, token: string): Promise<void> {
  const hook = await call(world.app, "POST", "/api/v1/webhooks", {
    token,
    body: { url: `${world.hooks.origin}/hooks`, events: ["call.ended"] },
  });
  if (hook.statusCode !== 201) throw new Error(`webhook subscription failed: ${hook.statusCode} ${hook.body}`);
}

/** A delivery of call.ended: the call log as GET /call-logs/{id} gives it. */
const CallEndedEvent = z.object({ type: z.string(), data: z.object({ call: CallLog.passthrough() }).passthrough() });

/**
 * The call's log once closed, after checking its call.ended webhook carries the same outcome: the
 * end reason, the status and every fault event.
 */
export async function closedOutcome(world: ChaosWorld, token: string, callId: string): Promise<CallLog> {
  const log = await closedCallLog(world.app, token, callId);
  const events = await until(
    async () => world.hooks.received.map((r) => CallEndedEvent.parse(JSON.parse(r.body))),
    (list) => list.some((e) => e.type === "call.ended" && e.data.call.id === callId),
    `the call.ended webhook of ${callId}`,
  );
  const webhook = CallLog.parse(events.find((e) => e.type === "call.ended" && e.data.call.id === callId)?.data.call);
  expect({ end_reason: webhook.end_reason, status: webhook.status, faults: faultEvents(webhook) }).toEqual({
    end_reason: log.end_reason,
    status: log.status,
    faults: faultEvents(log),
  });
  return log;
}
