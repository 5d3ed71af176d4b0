import type { CallLog } from "@parley/contract";
import type { NetworkDeps } from "@parley/engine";
import { startFakeAssemblyAiStreaming } from "@parley/engine/testing/vendor-servers/fake-assemblyai-streaming";
import type { FakeWsServer } from "@parley/engine/testing/vendor-servers/ws-server";
import { afterAll, beforeAll, expect } from "vitest";
import { call, signedInUser, type TestApp } from "../harness.ts";
import { createAssistant } from "./calls.ts";
import type { CallerEar } from "./chaos-caller.ts";
import { type ChaosStt, type SttFault, startChaosStt } from "./chaos-stt.ts";
import { type ChaosTts, startChaosTts, type TtsScenario } from "./chaos-tts.ts";
import { type CallApp, startCallApp } from "./realtime-calls.ts";
import type { ModelScript } from "./scripted-llm.ts";

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
/** Silence after the assistant's last sound that means it has finished (longer than any gap allowed). */
export const SETTLED_MS = 4_500;

export const chaosScript: ModelScript = () => ({ text: REPLY });

export interface ChaosWorld {
  app: CallApp;
  stt: ChaosStt;
  tts: ChaosTts;
  /** A working streaming recogniser of another vendor (AssemblyAI's double), for backups. */
  backupStt: FakeWsServer;
}

/** The AssemblyAI key every workspace of the chaos tests saves for its backup recogniser. */
const BACKUP_STT_KEY = "aai-chaos-backup-key-0123456789";

/** A working cloud recogniser as a backup: AssemblyAI Universal Streaming (its double). */
export const CLOUD_STT = { provider: "assembly-ai", config: {} };

/** The app's network with AssemblyAI's streaming host routed to its double. */
function routeAssemblyAi(base: NetworkDeps, origin: string): NetworkDeps {
  const open = base.openWebSocket;
  if (!open) throw new Error("the app's network opens no WebSockets");
  return {
    ...base,
    openWebSocket: (url, options) => open(url.replace(/^wss:\/\/streaming\.assemblyai\.com/, origin), options),
  };
}

/** The doubles and the app for one test file, routed together; closed after the file. */
export function useChaosWorld(): ChaosWorld {
  const world = {} as ChaosWorld;
  beforeAll(async () => {
    const [stt, tts, backupStt, app] = await Promise.all([
      startChaosStt(),
      startChaosTts(),
      startFakeAssemblyAiStreaming({ apiKey: BACKUP_STT_KEY, transcript: CALLER_LINE }),
      startCallApp(chaosScript),
    ]);
    app.ctx.network = stt.route(tts.route(routeAssemblyAi(app.ctx.network, backupStt.baseUrl)));
    Object.assign(world, { stt, tts, backupStt, app });
  });
  afterAll(async () => {
    await world.app?.close();
    await Promise.all([world.stt?.close(), world.tts?.close(), world.backupStt?.close()]);
  });
  return world;
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

/** The assistant's provider fields for a Deepgram recogniser and voice. */
export function deepgramFields(modelUrl: string) {
  return {
    llm_provider: "openai-compatible",
    llm_provider_config: { model: "scripted", base_url: modelUrl },
    stt_provider: "deepgram",
    stt_provider_config: {},
    tts_provider: "deepgram",
    tts_provider_config: { model: "aura-2", voice: "aura-2-thalia-en" },
  };
}

/**
 * A new workspace whose Deepgram key plays `scenario` on both doubles, and its assistant on
 * Deepgram with the scenario's backups and fault policy.
 */
export async function chaosAssistant(world: ChaosWorld, scenario: ChaosAssistant) {
  const t: TestApp = world.app;
  const user = await signedInUser(t);
  const key = world.stt.key(scenario.stt ?? { type: "none" });
  world.tts.key(scenario.tts ?? { fault: { type: "none" } }, key);
  const saved = await call(t, "PUT", "/api/v1/integrations/deepgram", {
    token: user.token,
    body: { credentials: { api_key: key } },
  });
  if (saved.statusCode !== 200) throw new Error(`saving the Deepgram key failed: ${saved.statusCode} ${saved.body}`);
  const backup = await call(t, "PUT", "/api/v1/integrations/assembly-ai", {
    token: user.token,
    body: { credentials: { api_key: BACKUP_STT_KEY } },
  });
  if (backup.statusCode !== 200)
    throw new Error(`saving the AssemblyAI key failed: ${backup.statusCode} ${backup.body}`);
  const agentId = await createAssistant(t, user.token, {
    first_message: GREETING,
    ...deepgramFields(world.app.llm.baseUrl),
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
