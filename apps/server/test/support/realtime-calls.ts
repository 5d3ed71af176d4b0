import type { AddressInfo } from "node:net";
import type { CallLog } from "@parley/contract";
import { afterAll, beforeAll } from "vitest";
import { call, createTestApp, type TestApp } from "../harness.ts";
import { roomToken, startRoom } from "./calls.ts";
import { RealtimeClient } from "./realtime-client.ts";
import { type ModelScript, type ScriptedLlm, startScriptedLlm } from "./scripted-llm.ts";
import { until } from "./until.ts";

/** The browser origin of the test apps (their PUBLIC_URL), which the realtime socket accepts. */
export const APP_ORIGIN = "http://localhost:5173";

/**
 * A test app listening on a free port of 127.0.0.1, so calls run over its real realtime WebSocket;
 * it may reach the test's own servers on 127.0.0.1 (the scripted model, webhooks).
 */
export async function startListeningApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", ...env });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  return t;
}

/** The realtime socket's URL on a listening test app. */
export function realtimeUrl(t: TestApp): string {
  return `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/realtime`;
}

/** Opens the realtime socket with a room token, as a browser on `origin` would when given. */
export function connectRealtime(t: TestApp, token: string, options: { origin?: string } = {}): Promise<RealtimeClient> {
  return RealtimeClient.connect(`${realtimeUrl(t)}?token=${encodeURIComponent(token)}`, options);
}

/** Starts a call to the assistant (POST /agents/{id}/call) and joins its room over the realtime socket. */
export async function joinCall(t: TestApp, userToken: string, agentId: string, options: { origin?: string } = {}) {
  const { room, callId } = await startRoom(t, userToken, agentId);
  const client = await connectRealtime(t, await roomToken(t, userToken, room), options);
  return { client, callId, room };
}

/** The call's log once the call is closed (completed or failed). */
export function closedCallLog(t: TestApp, token: string, callId: string): Promise<CallLog> {
  return until(
    async () => (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token })).json<CallLog>(),
    (log) => log.status === "completed" || log.status === "failed",
    "the call log to close",
  );
}

/** A listening test app with the scripted model it calls; closing it closes both. */
export interface CallApp extends TestApp {
  llm: ScriptedLlm;
}

/** The scripted model answering by `script`, and a listening test app whose assistants may use it. */
export async function startCallApp(script: ModelScript, env: Record<string, string> = {}): Promise<CallApp> {
  const llm = await startScriptedLlm(script);
  const t = await startListeningApp(env);
  return {
    ...t,
    llm,
    async close() {
      await t.close();
      await llm.close();
    },
  };
}

/**
 * For one test file: startCallApp's model and app, started before the file's tests and closed after
 * them. The object returned becomes the app when its hook has run.
 */
export function useCallApp(script: ModelScript, env: Record<string, string> = {}): CallApp {
  const t = {} as CallApp;
  beforeAll(async () => {
    Object.assign(t, await startCallApp(script, env));
  });
  afterAll(async () => {
    // Absent when the app never started (its hook failed): there is nothing to close then.
    await t.close?.();
  });
  return t;
}
