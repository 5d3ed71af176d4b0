import { type AuditEventPage, CallLog, SubjectErasure, SubjectExport, SubjectRecords } from "@parley/contract";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { blockedNumbers } from "../src/modules/batch-calls/do-not-call.ts";
import { batchCallContacts, batchCalls } from "../src/modules/batch-calls/schema.ts";
import { recordUsage } from "../src/modules/billing/metering.ts";
import { createRecordingFile, openRecordingFile } from "../src/modules/call-logs/recording-files.ts";
import { callLogs, callRecordings } from "../src/modules/call-logs/schema.ts";
import { createCallLog, finishCallLog } from "../src/modules/call-logs/service.ts";
import { webhookDeliveries, webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { signedInMember } from "./support/workspace-members.ts";

/**
 * Issue 34 item 4, acceptance: export then erase one number — the ZIP has its calls (whole logs and
 * recordings), its campaign row and do-not-call entry; afterwards the search finds nothing about it,
 * another number's records are untouched, billing's totals do not move, the number stays blocked,
 * and both actions are in the audit log without the number in it.
 */

const t: TestApp = useTestApp();
type Owner = Awaited<ReturnType<typeof signedInUser>>;
const NUMBER = "+14155550123";
const OTHER = "+14155550999";
const OURS = "+14155559999";
const api = (path: string) => `/api/v1${path}`;

let owner: Owner;
let agentId: string;

beforeAll(async () => {
  owner = await signedInUser(t);
  agentId = await createAssistant(t, owner.token, {});
});

/** A finished phone call with a transcript, a tool call and a workflow; recorded to a file when asked. */
async function phoneCall(remote: string, direction: "inbound" | "outbound", recorded: boolean, said: string) {
  const tenant = { workspaceId: owner.workspaceId };
  const [fromNumber, toNumber] = direction === "inbound" ? [remote, OURS] : [OURS, remote];
  const log = await createCallLog(t.ctx.db, tenant, {
    agentId,
    agentName: "Front desk",
    channel: "phone",
    direction,
    fromNumber,
    toNumber,
  });
  let recordingPath: string | null = null;
  if (recorded) {
    const recording = await createRecordingFile(t.config.dataDir, owner.workspaceId, log.id);
    recording.sink.write(new Int16Array(16_000).fill(900));
    expect(await recording.close()).toBeGreaterThan(0);
    recordingPath = recording.path;
  }
  await finishCallLog(t.ctx.db, tenant, log.id, {
    status: "completed",
    endReason: "caller_hangup",
    endedAt: new Date(),
    durationSeconds: 65,
    cost: 0.3,
    costBreakdown: null,
    transcript: [
      { role: "user", text: said, at_ms: 500 },
      { role: "assistant", text: "Noted.", at_ms: 1500 },
    ],
    toolCalls: [{ name: "book", arguments: '{"name":"Jane"}', result: "ok", ok: true, duration_ms: 9, at_ms: 900 }],
    turnMetrics: [],
    events: [{ type: "interruption", heard_text: said, at_ms: 700 }],
    recordingPath,
  });
  await t.ctx.db
    .update(callLogs)
    .set({ workflow: { workflow_id: "w1", version: 1, path: [], variables: { name: "Jane" } } })
    .where(eq(callLogs.id, log.id));
  return { id: log.id, recordingPath };
}

/** A call from before recordings went to files: its WAV in call_recordings. */
async function oldRecordedCall() {
  const { id } = await phoneCall(NUMBER, "outbound", false, "Call me back on this number");
  const wav = Buffer.from("RIFF....WAVEold-recording");
  await t.ctx.db.insert(callRecordings).values({ callId: id, workspaceId: owner.workspaceId, wav });
  await t.ctx.db.update(callLogs).set({ hasRecording: true }).where(eq(callLogs.id, id));
  return { id, wav };
}

async function campaign() {
  const workspaceId = owner.workspaceId;
  const [batch] = await t.ctx.db
    .insert(batchCalls)
    .values({
      workspaceId,
      name: "Spring offers",
      agentId,
      fromPhoneNumberId: crypto.randomUUID(),
      retryPolicy: { max_attempts: 1, retry_on: [], delay_minutes: 5 } as never,
      concurrency: 1,
      status: "running",
    })
    .returning();
  if (!batch) throw new Error("no campaign");
  const contact = (number: string, position: number) => ({
    workspaceId,
    batchCallId: batch.id,
    position,
    number,
    variables: { first_name: number === NUMBER ? "Jane" : "Sam" },
  });
  const rows = await t.ctx.db
    .insert(batchCallContacts)
    .values([contact(NUMBER, 0), contact(OTHER, 1)])
    .returning();
  return { batch, theirs: rows[0]?.id ?? "", other: rows[1]?.id ?? "" };
}

async function deliveries(aboutCall: string, oldCall: string, otherCall: string) {
  const workspaceId = owner.workspaceId;
  const [endpoint] = await t.ctx.db
    .insert(webhookEndpoints)
    .values({ workspaceId, url: "https://hooks.example.com/x", events: ["call.ended"], secret: "whsec_test" })
    .returning();
  if (!endpoint) throw new Error("no endpoint");
  const delivery = (data: Record<string, unknown>, status: "succeeded" | "pending") => ({
    workspaceId,
    endpointId: endpoint.id,
    eventId: crypto.randomUUID(),
    eventType: "call.ended" as const,
    payload: { type: "call.ended", data },
    status,
  });
  return t.ctx.db
    .insert(webhookDeliveries)
    .values([
      delivery({ call: { id: aboutCall, from_number: NUMBER } }, "succeeded"),
      delivery({ call_id: oldCall }, "pending"),
      delivery({ call: { id: otherCall, from_number: OTHER } }, "succeeded"),
    ])
    .returning();
}

const find = async (query: string) => {
  const res = await call(t, "GET", api(`/privacy/subjects?${query}`), { token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return SubjectRecords.parse(res.json());
};

async function callLog(id: string) {
  const res = await call(t, "GET", api(`/call-logs/${id}`), { token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return CallLog.parse(res.json());
}

const usage = async () => (await call(t, "GET", api("/billing/usage"), { token: owner.token })).json();

async function audit(action: "data.exported" | "data.erased") {
  const res = await call(t, "GET", api(`/audit-events?action=${action}`), { token: owner.token });
  return res.json<AuditEventPage>().data;
}

describe("a data subject's export and erasure", () => {
  it("exports a number's calls with their recordings, then erases it and keeps billing and others' data", async () => {
    const inbound = await phoneCall(NUMBER, "inbound", true, "I am Jane, write to jane@example.com");
    const old = await oldRecordedCall();
    const other = await phoneCall(OTHER, "inbound", true, "I am Sam");
    const contacts = await campaign();
    const dnc = await call(t, "POST", api("/do-not-call"), {
      token: owner.token,
      body: { phone_numbers: [NUMBER], reason: "asked" },
    });
    expect(dnc.statusCode, dnc.body).toBeLessThan(300);
    const [sent, waiting, others] = await deliveries(inbound.id, old.id, other.id);
    for (const id of [inbound.id, old.id, other.id]) await recordUsage(t.ctx.db, owner.workspaceId, await callLog(id));
    const billingBefore = await usage();
    expect(billingBefore).toMatchObject({ calls: 3, minutes: expect.any(Number) });

    // Export.
    const res = await call(t, "POST", api("/privacy/subjects/export"), { token: owner.token, body: { phone: NUMBER } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="subject-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      ["subject.json", `recordings/${inbound.id}.wav`, `recordings/${old.id}.wav`].sort(),
    );
    const exported = SubjectExport.parse(JSON.parse(new TextDecoder().decode(files["subject.json"])));
    expect(exported.query).toEqual({ phone: NUMBER });
    expect(exported.calls.map((c) => c.id).sort()).toEqual([inbound.id, old.id].sort());
    const first = exported.calls.find((c) => c.id === inbound.id);
    expect(first).toMatchObject({ from_number: NUMBER, recording_file: `recordings/${inbound.id}.wav` });
    expect(first?.transcript[0]?.text).toContain("jane@example.com");
    expect(first?.tool_calls).toHaveLength(1);
    expect(first?.workflow?.variables).toEqual({ name: "Jane" });
    expect(exported.campaign_contacts).toMatchObject([
      { id: contacts.theirs, campaign_name: "Spring offers", number: NUMBER, variables: { first_name: "Jane" } },
    ]);
    expect(exported.do_not_call).toMatchObject([{ number: NUMBER, reason: "asked" }]);
    expect(exported.recordings_left_out).toBe(0);
    const file = await openRecordingFile(t.config.dataDir, inbound.recordingPath ?? "");
    expect(file?.size).toBe(files[`recordings/${inbound.id}.wav`]?.byteLength);
    file?.stream.destroy();
    expect(Buffer.from(files[`recordings/${old.id}.wav`] ?? []).equals(old.wav)).toBe(true);

    // Erase: confirmed only.
    const unconfirmed = await call(t, "POST", api("/privacy/subjects/erase"), {
      token: owner.token,
      body: { phone: NUMBER },
    });
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.body).toContain("confirm: true");
    const erased = await call(t, "POST", api("/privacy/subjects/erase"), {
      token: owner.token,
      body: { phone: NUMBER, confirm: true },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(SubjectErasure.parse(erased.json())).toEqual({
      calls: 2,
      recordings: 2,
      campaign_contacts: 1,
      do_not_call: 1,
      webhook_deliveries: 2,
    });

    // Nothing about the number is found; its calls keep their metadata only.
    expect(await find(`phone=${encodeURIComponent(NUMBER)}`)).toEqual({
      calls: [],
      campaign_contacts: [],
      do_not_call: [],
    });
    expect((await find("email=jane%40example.com")).calls).toEqual([]);
    const after = await callLog(inbound.id);
    expect(after).toMatchObject({
      from_number: null,
      to_number: OURS,
      transcript: [],
      tool_calls: [],
      events: [],
      analysis: null,
      has_recording: false,
      duration_seconds: 65,
      cost: 0.3,
      status: "completed",
    });
    expect(after.workflow?.variables).toEqual({});
    expect((await callLog(old.id)).to_number).toBeNull();
    expect(await openRecordingFile(t.config.dataDir, inbound.recordingPath ?? "")).toBeNull();
    expect(await t.ctx.db.select().from(callRecordings).where(eq(callRecordings.callId, old.id))).toEqual([]);
    expect((await call(t, "GET", api(`/call-logs/${inbound.id}/recording`), { token: owner.token })).statusCode).toBe(
      404,
    );
    expect(await usage()).toEqual(billingBefore);

    // The campaign never dials the row; the number stays blocked.
    const [row] = await t.ctx.db.select().from(batchCallContacts).where(eq(batchCallContacts.id, contacts.theirs));
    expect(row).toMatchObject({ status: "cancelled", variables: {} });
    expect(row?.number.startsWith("erased:")).toBe(true);
    const tenant = { workspaceId: owner.workspaceId };
    expect([...(await blockedNumbers(t.ctx.db, tenant, [NUMBER, OTHER]))]).toEqual([NUMBER]);
    const again = await call(t, "POST", api("/do-not-call"), { token: owner.token, body: { phone_numbers: [NUMBER] } });
    expect(again.json()).toMatchObject({ added: 0, duplicates: [{ value: NUMBER }] });
    const listed = (await call(t, "GET", api("/do-not-call"), { token: owner.token })).json<{
      data: { number: string }[];
    }>().data;
    expect(listed.map((e) => e.number)).toEqual([row?.number]);
    expect(row?.number).toMatch(/^erased:[0-9a-f]{20}$/);

    // Webhook bodies about the calls are emptied; the one not yet sent never goes.
    const delivery = async (id: string) =>
      (await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
    expect(await delivery(sent?.id ?? "")).toMatchObject({ payload: {}, status: "succeeded" });
    expect(await delivery(waiting?.id ?? "")).toMatchObject({ payload: {}, status: "failed", nextAttemptAt: null });

    // The other number's records are untouched.
    const theirs = await find(`phone=${encodeURIComponent(OTHER)}`);
    expect(theirs.calls.map((c) => c.id)).toEqual([other.id]);
    expect(theirs.campaign_contacts.map((c) => c.id)).toEqual([contacts.other]);
    expect((await callLog(other.id)).transcript).toHaveLength(2);
    const otherFile = await openRecordingFile(t.config.dataDir, other.recordingPath ?? "");
    expect(otherFile).not.toBeNull();
    otherFile?.stream.destroy();
    expect((await delivery(others?.id ?? ""))?.payload).toMatchObject({ data: { call: { id: other.id } } });

    // Both actions are audited, by kind and counts, without the number.
    const [exportEntry] = await audit("data.exported");
    const [eraseEntry] = await audit("data.erased");
    expect(exportEntry).toMatchObject({
      actor_user_id: owner.user.id,
      target_type: "subject",
      details: { subject: "phone", calls: 2, recordings: 2, campaign_contacts: 1, do_not_call: 1, complete: true },
    });
    expect(eraseEntry).toMatchObject({
      target_type: "subject",
      target_id: exportEntry?.target_id,
      details: { subject: "phone", calls: 2, recordings: 2, campaign_contacts: 1, do_not_call: 1 },
    });
    expect(JSON.stringify([exportEntry, eraseEntry])).not.toContain("4155550123");
  });

  it("lets an owner remove an erased person's hashed do-not-call entry as the list shows it", async () => {
    const number = "+14155550444";
    const token = owner.token;
    await call(t, "POST", api("/do-not-call"), { token, body: { phone_numbers: [number] } });
    await call(t, "POST", api("/privacy/subjects/erase"), { token, body: { phone: number, confirm: true } });
    const tenant = { workspaceId: owner.workspaceId };
    expect(await blockedNumbers(t.ctx.db, tenant, [number])).toEqual(new Set([number]));
    const shown = (await call(t, "GET", api("/do-not-call?search=erased"), { token })).json<{
      data: { number: string }[];
    }>().data;
    const hashed = shown.map((e) => e.number);
    const removed = await call(t, "DELETE", api("/do-not-call"), { token, body: { phone_numbers: hashed } });
    expect(removed.json()).toMatchObject({ removed: hashed.length, invalid: [] });
    expect(await blockedNumbers(t.ctx.db, tenant, [number])).toEqual(new Set());
  });

  it("erases by email the calls that name it and the campaign rows holding it", async () => {
    const named = await phoneCall("+14155550777", "inbound", false, "Mail me at Lee@Example.org");
    const { other } = await campaign();
    const [contact] = await t.ctx.db
      .update(batchCallContacts)
      .set({ variables: { email: "lee@example.org" } })
      .where(eq(batchCallContacts.id, other))
      .returning();
    const found = await find("email=lee%40example.org");
    expect(found.calls.map((c) => c.id)).toEqual([named.id]);
    expect(found.campaign_contacts.map((c) => c.id)).toEqual([contact?.id]);
    const res = await call(t, "POST", api("/privacy/subjects/erase"), {
      token: owner.token,
      body: { email: "lee@example.org", confirm: true },
    });
    expect(res.json()).toMatchObject({ calls: 1, campaign_contacts: 1, do_not_call: 0 });
    expect(await find("email=lee%40example.org")).toEqual({ calls: [], campaign_contacts: [], do_not_call: [] });
    expect(await callLog(named.id)).toMatchObject({ from_number: null, to_number: OURS, transcript: [] });
  });

  it("refuses to erase while a call with the number is in progress", async () => {
    const live = "+14155550555";
    await createCallLog(
      t.ctx.db,
      { workspaceId: owner.workspaceId },
      { agentId, agentName: "Front desk", channel: "phone", direction: "inbound", fromNumber: live, toNumber: OURS },
    );
    const res = await call(t, "POST", api("/privacy/subjects/erase"), {
      token: owner.token,
      body: { phone: live, confirm: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain("in progress");
  });

  it("is for the workspace's owners, signed in: members and API keys are refused", async () => {
    const member = await signedInMember(t, owner.workspaceId);
    const key = (
      await call(t, "POST", api("/api-keys"), { token: owner.token, body: { name: "k", scopes: ["read", "write"] } })
    ).json<{ secret: string }>();
    for (const token of [member.token, key.secret]) {
      for (const [path, body] of [
        ["/privacy/subjects/export", { phone: NUMBER }],
        ["/privacy/subjects/erase", { phone: NUMBER, confirm: true }],
      ] as const) {
        expect((await call(t, "POST", api(path), { token, body })).statusCode).toBe(403);
      }
    }
    expect((await call(t, "POST", api("/privacy/subjects/export"), { token: owner.token, body: {} })).statusCode).toBe(
      422,
    );
  });

  it("never exports or erases another workspace's records", async () => {
    const stranger = await signedInUser(t);
    const theirs = await phoneCall("+14155550888", "inbound", true, "Hello");
    const res = await call(t, "POST", api("/privacy/subjects/export"), {
      token: stranger.token,
      body: { phone: "+14155550888" },
    });
    const exported = SubjectExport.parse(
      JSON.parse(new TextDecoder().decode(unzipSync(new Uint8Array(res.rawPayload))["subject.json"])),
    );
    expect(exported.calls).toEqual([]);
    const erased = await call(t, "POST", api("/privacy/subjects/erase"), {
      token: stranger.token,
      body: { phone: "+14155550888", confirm: true },
    });
    expect(erased.json()).toMatchObject({ calls: 0, recordings: 0 });
    expect((await callLog(theirs.id)).from_number).toBe("+14155550888");
  });
});
