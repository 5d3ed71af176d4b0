import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openRecordingFile } from "../src/modules/call-logs/recording-files.ts";
import { callLogs, callRecordings } from "../src/modules/call-logs/schema.ts";
import { createCallLog, createRecordingFile, finishCallLog } from "../src/modules/call-logs/service.ts";
import { removeOrphanedRecordings } from "../src/modules/call-logs/upkeep-across-workspaces.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { stereoWav } from "./support/wav.ts";

const t = useTestApp();

type User = Awaited<ReturnType<typeof signedInUser>>;

async function assistant(user: User, name: string): Promise<string> {
  const res = await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name } });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

interface Seed {
  agentId: string;
  agentName?: string;
  channel?: "web" | "phone" | "widget";
  startedAt: string;
  durationSeconds?: number;
  status?: "completed" | "failed";
  words?: string;
  batchCallId?: string;
  recording?: Buffer | null;
  live?: boolean;
}

async function seed(user: User, s: Seed): Promise<string> {
  const row = await createCallLog(t.ctx.db, user, {
    agentId: s.agentId,
    agentName: s.agentName ?? "Front desk",
    channel: s.channel ?? "web",
    direction: "inbound",
    batchCallId: s.batchCallId ?? null,
    fromNumber: s.channel === "phone" ? "+15550001111" : null,
    startedAt: new Date(s.startedAt),
  });
  if (s.live) return row.id;
  const duration = s.durationSeconds ?? 60;
  let recordingPath: string | null = null;
  if (s.recording) {
    // Written the way a live call streams it: samples appended, the header's sizes filled in at the end.
    const file = await createRecordingFile(t.ctx.config.dataDir, user.workspaceId, row.id);
    const samples = s.recording.subarray(44);
    file.sink.write(new Int16Array(samples.buffer.slice(samples.byteOffset, samples.byteOffset + samples.byteLength)));
    await file.close();
    recordingPath = file.path;
  }
  await finishCallLog(t.ctx.db, user, row.id, {
    status: s.status ?? "completed",
    endReason: s.status === "failed" ? "error" : "caller_hangup",
    endedAt: new Date(new Date(s.startedAt).getTime() + duration * 1000),
    durationSeconds: duration,
    cost: duration * 0.001,
    costBreakdown: null,
    transcript: [
      { role: "assistant", text: "Hello! How can I help you today?", at_ms: 0 },
      { role: "user", text: s.words ?? "I would like to book a table", at_ms: 2000 },
    ],
    toolCalls: [],
    turnMetrics: [
      { turn: 1, stt_ms: 120, llm_ttft_ms: 300, tts_ttfb_ms: 90, voice_to_voice_ms: 640, engine_overhead_ms: 30 },
    ],
    events: [{ type: "interruption", heard_text: "Hello", at_ms: 1500 }],
    recordingPath,
  });
  return row.id;
}

const list = (user: User, query = "") => call(t, "GET", `/api/v1/call-logs${query}`, { token: user.token });

describe("call logs", () => {
  it("lists the workspace's calls newest first, paged", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Front desk");
    const ids: string[] = [];
    for (let day = 1; day <= 5; day += 1) {
      ids.push(await seed(a, { agentId: agent, startedAt: `2026-03-0${day}T10:00:00Z` }));
    }
    const first = await list(a, "?items_per_page=2");
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page).toMatchObject({ total_count: 5, page: 1, items_per_page: 2, pages: 3 });
    expect(page.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(page.data[0]).toMatchObject({
      agent_id: agent,
      agent_name: "Front desk",
      channel: "web",
      direction: "inbound",
      status: "completed",
      end_reason: "caller_hangup",
      duration_seconds: 60,
      started_at: "2026-03-05T10:00:00.000Z",
      ended_at: "2026-03-05T10:01:00.000Z",
    });
    const last = (await list(a, "?items_per_page=2&page=3")).json();
    expect(last.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect((await list(a)).json().items_per_page).toBe(20);
    expect((await list(a, "?items_per_page=101")).statusCode).toBe(422);
  });

  it("filters by assistant, status, channel, batch call and dates", async () => {
    const a = await signedInUser(t);
    const desk = await assistant(a, "Desk");
    const sales = await assistant(a, "Sales");
    const batch = "5f0e9a52-7d6b-4f5e-9a37-2b1c0d3e4f50";
    await seed(a, { agentId: desk, startedAt: "2026-04-01T09:00:00Z" });
    const failed = await seed(a, { agentId: desk, startedAt: "2026-04-02T09:00:00Z", status: "failed" });
    const phone = await seed(a, { agentId: sales, startedAt: "2026-04-03T23:30:00Z", channel: "phone" });
    const batched = await seed(a, { agentId: sales, startedAt: "2026-04-04T09:00:00Z", batchCallId: batch });
    const ids = async (query: string) => (await list(a, query)).json().data.map((c: { id: string }) => c.id);
    expect(await ids(`?agent_id=${sales}`)).toEqual([batched, phone]);
    expect(await ids("?status=failed")).toEqual([failed]);
    expect(await ids("?channel=phone")).toEqual([phone]);
    expect(await ids(`?batch_call_id=${batch}`)).toEqual([batched]);
    // A bare date_to covers that whole UTC day.
    expect(await ids("?date_from=2026-04-02&date_to=2026-04-03")).toEqual([phone, failed]);
    expect(await ids("?date_from=2026-04-03T23:00:00Z")).toEqual([batched, phone]);
    expect((await list(a, "?status=ringing")).statusCode).toBe(422);
  });

  it("searches the transcript text, case-insensitively, wildcards literal", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const refund = await seed(a, {
      agentId: agent,
      startedAt: "2026-05-01T09:00:00Z",
      words: "I want a REFUND please",
    });
    await seed(a, { agentId: agent, startedAt: "2026-05-02T09:00:00Z", words: "What are your opening hours?" });
    const percent = await seed(a, { agentId: agent, startedAt: "2026-05-03T09:00:00Z", words: "Is it 100% free?" });
    const ids = async (q: string) =>
      (await list(a, `?search=${encodeURIComponent(q)}`)).json().data.map((c: { id: string }) => c.id);
    expect(await ids("refund")).toEqual([refund]);
    expect(await ids("100%")).toEqual([percent]);
    expect(await ids("%")).toEqual([percent]);
    expect(await ids("nothing like this")).toEqual([]);
  });

  it("shows one call with its timeline, and its recording as WAV", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const wav = stereoWav(16000, 0.5);
    const id = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z", recording: wav });
    const plain = await seed(a, { agentId: agent, startedAt: "2026-06-02T09:00:00Z" });
    const detail = await call(t, "GET", `/api/v1/call-logs/${id}`, { token: a.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      has_recording: true,
      transcript: [{ role: "assistant" }, { role: "user", text: "I would like to book a table", at_ms: 2000 }],
      turn_metrics: [{ turn: 1, voice_to_voice_ms: 640, llm_ttft_ms: 300 }],
      events: [{ type: "interruption", heard_text: "Hello" }],
      tool_calls: [],
    });
    const audio = await call(t, "GET", `/api/v1/call-logs/${id}/recording`, { token: a.token });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/wav");
    expect(audio.rawPayload.equals(wav)).toBe(true);
    const none = await call(t, "GET", `/api/v1/call-logs/${plain}/recording`, { token: a.token });
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe("This call has no recording.");
  });

  it("deletes a finished call with its recording, but not a live one", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const id = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z", recording: stereoWav(16000, 0.1) });
    const live = await seed(a, { agentId: agent, startedAt: "2026-06-01T10:00:00Z", live: true });
    expect((await call(t, "DELETE", `/api/v1/call-logs/${id}`, { token: a.token })).statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/call-logs/${id}`, { token: a.token })).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/call-logs/${id}/recording`, { token: a.token })).statusCode).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/call-logs/${id}`, { token: a.token })).statusCode).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/call-logs/${live}`, { token: a.token })).statusCode).toBe(409);
  });

  it("removes the recording's file with its log", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const id = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z", recording: stereoWav(16000, 0.1) });
    const [row] = await t.ctx.db.select({ path: callLogs.recordingPath }).from(callLogs).where(eq(callLogs.id, id));
    const file = row?.path ?? "";
    expect(file).toMatch(/\.wav$/);
    const before = await openRecordingFile(t.ctx.config.dataDir, file);
    before?.stream.destroy();
    expect(before?.size).toBe(44 + 0.1 * 16000 * 4);
    expect((await call(t, "DELETE", `/api/v1/call-logs/${id}`, { token: a.token })).statusCode).toBe(200);
    expect(await openRecordingFile(t.ctx.config.dataDir, file)).toBeNull();
  });

  it("removes recording files whose log is gone (a deleted workspace), and keeps the others", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const live = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z", live: true });
    // A data directory of its own: the suite's in-memory databases share one temp folder.
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-orphans-"));
    const write = async (callId: string) => {
      const file = await createRecordingFile(dataDir, a.workspaceId, callId);
      file.sink.write(new Int16Array(640));
      await file.close();
      return file.path;
    };
    const kept = await write(live);
    const orphan = await write(crypto.randomUUID());
    expect(await removeOrphanedRecordings(t.ctx.db, dataDir)).toBe(1);
    expect(await openRecordingFile(dataDir, orphan)).toBeNull();
    const still = await openRecordingFile(dataDir, kept);
    still?.stream.destroy();
    expect(still).not.toBeNull();
  });

  it("still plays a recording kept in the database before recordings went to files", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const id = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z" });
    const wav = stereoWav(16000, 0.2);
    await t.ctx.db.insert(callRecordings).values({ callId: id, workspaceId: a.workspaceId, wav });
    const audio = await call(t, "GET", `/api/v1/call-logs/${id}/recording`, { token: a.token });
    expect(audio.statusCode).toBe(200);
    expect(audio.rawPayload.equals(wav)).toBe(true);
  });

  it("keeps the log when its assistant is deleted", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Gone soon");
    const id = await seed(a, { agentId: agent, agentName: "Gone soon", startedAt: "2026-06-01T09:00:00Z" });
    expect((await call(t, "DELETE", `/api/v1/agents/${agent}`, { token: a.token })).statusCode).toBe(200);
    const detail = (await call(t, "GET", `/api/v1/call-logs/${id}`, { token: a.token })).json();
    expect(detail).toMatchObject({ agent_id: null, agent_name: "Gone soon" });
  });

  it("counts this calendar month's calls and minutes (UTC)", async () => {
    const a = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const now = t.ctx.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const before = new Date(monthStart.getTime() - 60_000).toISOString();
    await seed(a, { agentId: agent, startedAt: before, durationSeconds: 600 });
    await seed(a, { agentId: agent, startedAt: monthStart.toISOString(), durationSeconds: 90 });
    const latest = await seed(a, { agentId: agent, startedAt: now.toISOString(), durationSeconds: 30 });
    const res = await call(t, "GET", "/api/v1/call-logs/stats", { token: a.token });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats).toMatchObject({ calls_this_month: 2, minutes_this_month: 2, active_calls: 0 });
    expect(stats.recent_calls).toHaveLength(3);
    expect(stats.recent_calls[0].id).toBe(latest);
  });

  it("hides other workspaces' calls (404) and needs sign-in", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const agent = await assistant(a, "Desk");
    const id = await seed(a, { agentId: agent, startedAt: "2026-06-01T09:00:00Z", recording: stereoWav(16000, 0.1) });
    expect((await list(b)).json().total_count).toBe(0);
    for (const url of [`/api/v1/call-logs/${id}`, `/api/v1/call-logs/${id}/recording`]) {
      expect((await call(t, "GET", url, { token: b.token })).statusCode).toBe(404);
    }
    expect((await call(t, "DELETE", `/api/v1/call-logs/${id}`, { token: b.token })).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/call-logs/${id}`, { token: a.token })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/v1/call-logs")).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/v1/call-logs/stats", { token: b.token })).json().calls_this_month).toBe(0);
  });
});
