import path from "node:path";
import { type BillingUsage, CallLog } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRecordingFile } from "../src/modules/call-logs/recording-files.ts";
import { call, signedInUser } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { startReceiver } from "./support/loopback.ts";
import { APP_ORIGIN, joinCall, useCallApp } from "./support/realtime-calls.ts";
import type { ModelScript } from "./support/scripted-llm.ts";
import { until } from "./support/until.ts";

/**
 * Zero-retention on the call path (issue 34 item 1): the call stores its metadata only — no
 * recording file, transcript, tool calls or analysis, a call.ended webhook without what was said —
 * and is billed exactly as the same call kept in full.
 */

const SAID = "Hello, my e-mail is jane@example.org.";

const script: ModelScript = (request) => {
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  if (system.startsWith("You analyse a finished phone call")) return { text: "A caller gave an address." };
  return { text: "Thank you, noted." };
};

const t = useCallApp(script);
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver((_request, res) => res.writeHead(200).end("ok"));
});
afterAll(async () => {
  await receiver?.close();
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;

async function ownerWith(zeroRetention: boolean): Promise<Owner> {
  const owner = await signedInUser(t);
  const retention = {
    recordings: null,
    transcripts: null,
    tool_calls: null,
    analysis: null,
    webhook_bodies: null,
    document_files: null,
  };
  const saved = await call(t, "PUT", "/api/v1/privacy/settings", {
    token: owner.token,
    body: { retention, zero_retention: zeroRetention },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const hook = await call(t, "POST", "/api/v1/webhooks", {
    token: owner.token,
    body: { url: `${receiver.origin}/hooks/${owner.workspaceId}`, events: ["call.ended"] },
  });
  expect(hook.statusCode).toBe(201);
  return owner;
}

/** One call: the caller types a line with an address, the assistant answers, the caller hangs up. */
async function holdCall(owner: Owner, analysis: boolean): Promise<string> {
  const agent = await createAssistant(t, owner.token, {
    name: "Desk",
    first_message: "Hello, how can I help?",
    audio_recording: true,
    llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl },
    ...(analysis ? { analysis: { summary: { enabled: true, prompt: "Summarise." } } } : {}),
  });
  const { client, callId } = await joinCall(t, owner.token, agent, { origin: APP_ORIGIN });
  await client.waitFor("ready");
  client.send({ type: "text", text: SAID });
  await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true && /noted/.test(String(m.text)));
  client.send({ type: "hangup" });
  await client.closed;
  return callId;
}

const callLog = async (owner: Owner, callId: string) =>
  CallLog.parse((await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: owner.token })).json());

/** The workspace's billing once its one call is metered. */
const meteredUsage = (owner: Owner) =>
  until(
    async () => (await call(t, "GET", "/api/v1/billing/usage", { token: owner.token })).json<BillingUsage>(),
    (usage) => usage.calls === 1 && usage.by_component.length > 0,
    "the call to be metered",
  );

const webhookBody = (owner: Owner) =>
  until(
    async () => receiver.received.find((r) => r.url.endsWith(owner.workspaceId))?.body ?? "",
    (body) => body !== "",
    "the call.ended webhook",
  );

describe("a zero-retention call", () => {
  it("stores only its metadata: no transcript, tool calls, analysis or recording, and a webhook without content", async () => {
    const owner = await ownerWith(true);
    const callId = await holdCall(owner, true);
    const asked = t.llm.requests.length;

    const log = await until(
      () => callLog(owner, callId),
      (l) => l.status === "completed",
      "the call log to close",
    );
    expect(log).toMatchObject({ status: "completed", end_reason: "caller_hangup", has_recording: false });
    expect(log.duration_seconds).toBeGreaterThan(0);
    expect(log.cost).toEqual(expect.any(Number));
    expect(log.started_at).toEqual(expect.any(String));
    expect(log.ended_at).toEqual(expect.any(String));
    expect(log.transcript).toEqual([]);
    expect(log.tool_calls).toEqual([]);
    expect(JSON.stringify(log)).not.toContain("jane@example.org");

    // No recording file was ever written under DATA_DIR.
    const file = path.join("recordings", owner.workspaceId, `${callId}.wav`);
    expect(await openRecordingFile(t.config.dataDir, file)).toBeNull();

    // The webhook went without waiting for an analysis, and carries nothing that was said.
    const body = await webhookBody(owner);
    expect(JSON.parse(body)).toMatchObject({ type: "call.ended", data: { call: { id: callId, transcript: [] } } });
    expect(body).not.toContain("jane@example.org");
    expect(body).not.toContain("noted");

    // Nothing analysed the call: no model request after it, no analysis on its log.
    await meteredUsage(owner);
    expect(t.llm.requests.length).toBe(asked);
    expect((await callLog(owner, callId)).analysis).toBeNull();
  });

  it("is billed as the same call kept in full", async () => {
    const zero = await ownerWith(true);
    const full = await ownerWith(false);
    const zeroCall = await holdCall(zero, false);
    const fullCall = await holdCall(full, false);
    const [zeroUsage, fullUsage] = [await meteredUsage(zero), await meteredUsage(full)];
    const [zeroLog, fullLog] = [await callLog(zero, zeroCall), await callLog(full, fullCall)];
    expect(fullLog.transcript.length).toBeGreaterThan(0);
    // Each workspace's bill is its call's cost and minutes, the same way.
    for (const [usage, log] of [
      [zeroUsage, zeroLog],
      [fullUsage, fullLog],
    ] as const) {
      expect(usage.cost).toBeCloseTo(log.cost, 6);
      expect(usage.minutes).toBeCloseTo(log.duration_seconds / 60, 2);
    }
    // The same words were spoken and the same tokens read: those lines are identical.
    const counted = (usage: BillingUsage) =>
      usage.by_component
        .filter((line) => line.component !== "stt")
        .map((line) => [line.component, line.quantity])
        .sort();
    expect(counted(zeroUsage)).toEqual(counted(fullUsage));
    expect(zeroUsage.by_component.map((line) => line.component).sort()).toEqual(
      fullUsage.by_component.map((line) => line.component).sort(),
    );
  });
});
