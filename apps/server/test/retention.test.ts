import { type AuditEventPage, CallLog, type PrivacySettings, type PrivacySettingsInput } from "@parley/contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordUsage } from "../src/modules/billing/metering.ts";
import { createRecordingFile, openRecordingFile } from "../src/modules/call-logs/recording-files.ts";
import { createCallLog, finishCallLog, saveCallAnalysis } from "../src/modules/call-logs/service.ts";
import { documentFiles, documents } from "../src/modules/knowledge-base/schema.ts";
import { webhookDeliveries, webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { until } from "./support/until.ts";

/**
 * Issue 34, acceptance: with a retention of one day, yesterday's recordings (their files in DATA_DIR
 * too) and transcripts are gone after the pass, today's stay, the calls' metadata stays and billing's
 * totals do not move. Zero-retention clears a call's content as soon as it has ended.
 */

const t: TestApp = useTestApp();
const DAY_MS = 86_400_000;
type Owner = Awaited<ReturnType<typeof signedInUser>>;

const keep: PrivacySettings["retention"] = {
  recordings: null,
  transcripts: null,
  tool_calls: null,
  analysis: null,
  webhook_bodies: null,
  document_files: null,
};

/** A finished call with a recording file, a transcript and a tool call, ended at `endedAt`. */
async function pastCall(owner: Owner, agentId: string, endedAt: Date) {
  const tenant = { workspaceId: owner.workspaceId };
  const log = await createCallLog(t.ctx.db, tenant, { agentId, agentName: "A", channel: "web", direction: "inbound" });
  const recording = await createRecordingFile(t.config.dataDir, owner.workspaceId, log.id);
  recording.sink.write(new Int16Array(16_000).fill(1200));
  expect(await recording.close()).toBeGreaterThan(0);
  await finishCallLog(t.ctx.db, tenant, log.id, {
    status: "completed",
    endReason: "caller_hangup",
    endedAt,
    durationSeconds: 95,
    cost: 0.42,
    costBreakdown: null,
    transcript: [
      { role: "user", text: "My card is 4111 1111 1111 1111", at_ms: 800 },
      { role: "assistant", text: "Thank you.", at_ms: 1900 },
    ],
    toolCalls: [{ name: "lookup", arguments: '{"card":"4111"}', result: "ok", ok: true, duration_ms: 12, at_ms: 1000 }],
    turnMetrics: [],
    events: [],
    recordingPath: recording.path,
  });
  return { id: log.id, recordingPath: recording.path };
}

async function callLog(owner: Owner, id: string) {
  const res = await call(t, "GET", `/api/v1/call-logs/${id}`, { token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return CallLog.parse(res.json());
}

const usage = async (owner: Owner) => (await call(t, "GET", "/api/v1/billing/usage", { token: owner.token })).json();

async function purged(owner: Owner) {
  const res = await call(t, "GET", "/api/v1/audit-events?action=retention.purged", { token: owner.token });
  return res.json<AuditEventPage>().data;
}

async function setRetention(owner: Owner, settings: PrivacySettingsInput) {
  const res = await call(t, "PUT", "/api/v1/privacy/settings", { token: owner.token, body: settings });
  expect(res.statusCode, res.body).toBe(200);
  // Settings sent without PII redaction leave it off.
  expect(res.json()).toEqual({ pii_redaction: "off", ...settings });
}

describe("retention", () => {
  it("removes yesterday's recordings and transcripts after one day, and keeps metadata and billing", async () => {
    const owner = await signedInUser(t);
    const agentId = await createAssistant(t, owner.token, {});
    const now = t.ctx.now();
    const old = await pastCall(owner, agentId, new Date(now.getTime() - DAY_MS - 3_600_000));
    const recent = await pastCall(owner, agentId, new Date(now.getTime() - 3_600_000));
    for (const id of [old.id, recent.id]) await recordUsage(t.ctx.db, owner.workspaceId, await callLog(owner, id));
    const billingBefore = await usage(owner);
    expect(billingBefore).toMatchObject({ calls: 2, minutes: expect.any(Number) });
    const before = await callLog(owner, old.id);
    expect(before.transcript).toHaveLength(2);
    expect(await openRecordingFile(t.config.dataDir, old.recordingPath)).not.toBeNull();

    await setRetention(owner, {
      // Every kind's statement runs; webhook bodies and documents have nothing this old.
      retention: { ...keep, recordings: 1, transcripts: 1, tool_calls: 1, webhook_bodies: 1, document_files: 1 },
      zero_retention: false,
    });
    const [entry] = await until(
      () => purged(owner),
      (e) => e.length > 0,
      "the retention pass",
    );
    expect(entry?.details).toEqual({
      recordings: 1,
      transcripts: 1,
      tool_calls: 1,
      analysis: 0,
      webhook_bodies: 0,
      document_files: 0,
    });
    expect(entry?.actor_user_id).toBeNull();

    const after = await callLog(owner, old.id);
    expect(after.transcript).toEqual([]);
    expect(after.tool_calls).toEqual([]);
    expect(after.has_recording).toBe(false);
    expect(await openRecordingFile(t.config.dataDir, old.recordingPath)).toBeNull();
    const recording = await call(t, "GET", `/api/v1/call-logs/${old.id}/recording`, { token: owner.token });
    expect(recording.statusCode).toBe(404);
    // The call itself stays: when, how long, what it cost, how it ended.
    for (const field of ["started_at", "ended_at", "duration_seconds", "cost", "end_reason", "status"] as const) {
      expect(after[field]).toEqual(before[field]);
    }
    // Today's call keeps everything.
    const kept = await callLog(owner, recent.id);
    expect(kept.transcript).toHaveLength(2);
    expect(kept.has_recording).toBe(true);
    expect(await openRecordingFile(t.config.dataDir, recent.recordingPath)).not.toBeNull();

    expect(await usage(owner)).toEqual(billingBefore);
    const listed = await call(t, "GET", "/api/v1/call-logs", { token: owner.token });
    expect(listed.json<{ total_count: number }>().total_count).toBe(2);
  });

  it("zero-retention clears a call's content once it has ended, in its own workspace only", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const agentId = await createAssistant(t, owner.token, {});
    const otherAgent = await createAssistant(t, other.token, {});
    const ended = await pastCall(owner, agentId, new Date(t.ctx.now().getTime() - 1_000));
    await saveCallAnalysis(t.ctx.db, { workspaceId: owner.workspaceId }, ended.id, {
      status: "done",
      summary: "The caller read out a card.",
      success: null,
      structured_data: null,
      error: null,
      completed_at: new Date().toISOString(),
    });
    const theirs = await pastCall(other, otherAgent, new Date(t.ctx.now().getTime() - 1_000));

    await setRetention(owner, { retention: keep, zero_retention: true });
    await until(
      () => purged(owner),
      (e) => e.length > 0,
      "the zero-retention pass",
    );
    const after = await callLog(owner, ended.id);
    expect(after).toMatchObject({ transcript: [], tool_calls: [], has_recording: false, analysis: null });
    expect(after.duration_seconds).toBe(95);
    expect(await openRecordingFile(t.config.dataDir, ended.recordingPath)).toBeNull();

    const untouched = await callLog(other, theirs.id);
    expect(untouched.transcript).toHaveLength(2);
    expect(await openRecordingFile(t.config.dataDir, theirs.recordingPath)).not.toBeNull();
  });

  it("refuses days out of range and is for owners' eyes", async () => {
    const owner = await signedInUser(t);
    const bad = await call(t, "PUT", "/api/v1/privacy/settings", {
      token: owner.token,
      body: { retention: { ...keep, recordings: 0 }, zero_retention: false },
    });
    expect(bad.statusCode).toBe(422);
    const read = await call(t, "GET", "/api/v1/privacy/settings", { token: owner.token });
    expect(read.json()).toEqual({ retention: keep, zero_retention: false, pii_redaction: "off" });
  });

  it("empties finished webhook bodies and drops uploaded files past their days, keeping pending ones", async () => {
    const owner = await signedInUser(t);
    const workspaceId = owner.workspaceId;
    const old = new Date(t.ctx.now().getTime() - 3 * DAY_MS);
    const [endpoint] = await t.ctx.db
      .insert(webhookEndpoints)
      .values({ workspaceId, url: "https://hooks.example.com/x", events: ["call.ended"], secret: "whsec_test" })
      .returning();
    if (!endpoint) throw new Error("no endpoint");
    const delivery = (status: "succeeded" | "pending") => ({
      workspaceId,
      endpointId: endpoint.id,
      eventId: crypto.randomUUID(),
      eventType: "call.ended" as const,
      payload: { transcript: "My card is 4111" },
      status,
      createdAt: old,
    });
    const [sent, waiting] = await t.ctx.db
      .insert(webhookDeliveries)
      .values([delivery("succeeded"), delivery("pending")])
      .returning();
    const [doc] = await t.ctx.db
      .insert(documents)
      .values({ workspaceId, name: "prices.txt", status: "ready", createdAt: old })
      .returning();
    if (!sent || !waiting || !doc) throw new Error("no rows");
    await t.ctx.db.insert(documentFiles).values({ documentId: doc.id, workspaceId, data: Buffer.from("prices") });

    await setRetention(owner, { retention: { ...keep, webhook_bodies: 2, document_files: 2 }, zero_retention: false });
    const [entry] = await until(
      () => purged(owner),
      (e) => e.length > 0,
      "the retention pass",
    );
    expect(entry?.details).toMatchObject({ webhook_bodies: 1, document_files: 1 });
    const payloadOf = async (id: string) =>
      (await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]?.payload;
    expect(await payloadOf(sent.id)).toEqual({});
    expect(await payloadOf(waiting.id)).toEqual({ transcript: "My card is 4111" });
    expect(await t.ctx.db.select().from(documentFiles).where(eq(documentFiles.documentId, doc.id))).toEqual([]);
    expect(await t.ctx.db.select().from(documents).where(eq(documents.id, doc.id))).toHaveLength(1);
  });
});
