import type { CallAnalysis, TurnMetricsEntry } from "@parley/contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chooseCallVersion } from "../src/modules/assistants/experiment-choice.ts";
import { callVersions } from "../src/modules/assistants/schema.ts";
import { requireAgent } from "../src/modules/assistants/service.ts";
import { callLogs } from "../src/modules/call-logs/schema.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";

/** Experiments (issue 30): a deterministic split of an assistant's calls between versions, its states and results. */

const t = useTestApp();
type User = { token: string; workspaceId: string };

const api = (user: User, method: "GET" | "POST" | "PATCH", url: string, body?: Record<string, unknown>) =>
  call(t, method, `/api/v1${url}`, { token: user.token, ...(body ? { body } : {}) });

async function ok<T = Record<string, unknown>>(response: ReturnType<typeof api>, status = 200): Promise<T> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/** An assistant with two versions (prompts "One." and "Two."), v2 published. */
async function twoVersions(user: User) {
  const id = await createAssistant(t, user.token, { system_prompt: "One." });
  await ok(api(user, "PATCH", `/agents/${id}`, { system_prompt: "Two." }));
  return id;
}

type Experiment = { id: string; status: string; winner_version: number | null; variants: { id: string }[] };

async function runningExperiment(user: User, agentId: string, channel = "phone") {
  const created = await ok<Experiment>(
    api(user, "POST", `/agents/${agentId}/experiments`, {
      name: "Warmer prompt",
      channel,
      variants: [
        { version: 1, percent: 50 },
        { version: 2, percent: 50 },
      ],
    }),
    201,
  );
  expect(created.status).toBe("draft");
  return ok<Experiment>(api(user, "POST", `/agents/${agentId}/experiments/${created.id}/start`));
}

const phoneCall = (agentId: string, from: string) =>
  ({ agentId, channel: "phone", direction: "inbound", from, to: "+15550000000" }) as const;
const numbers = Array.from({ length: 200 }, (_, i) => `+1202555${String(i).padStart(4, "0")}`);

describe("experiments", () => {
  it("splits 200 distinct callers 50/50 within 100 ± 20, the same number always to the same version", async () => {
    const a = await signedInUser(t);
    const id = await twoVersions(a);
    await runningExperiment(a, id);
    const agent = await requireAgent(t.ctx.db, a, id);
    const counts = { 1: 0, 2: 0 } as Record<number, number>;
    const first = new Map<string, number>();
    for (const number of numbers) {
      const choice = await chooseCallVersion(t.ctx.db, a, agent, phoneCall(id, number), crypto.randomUUID());
      counts[choice.version] = (counts[choice.version] ?? 0) + 1;
      first.set(number, choice.version);
    }
    expect(counts[1]).toBeGreaterThanOrEqual(80);
    expect(counts[2]).toBeGreaterThanOrEqual(80);
    expect((counts[1] ?? 0) + (counts[2] ?? 0)).toBe(200);
    for (const number of numbers.slice(0, 40)) {
      const again = await chooseCallVersion(t.ctx.db, a, agent, phoneCall(id, number), crypto.randomUUID());
      expect(again.version).toBe(first.get(number));
    }
    // Not a phone call: the experiment does not cover it, the published version runs.
    const web = await chooseCallVersion(t.ctx.db, a, agent, { agentId: id, channel: "web", direction: "inbound" }, "c");
    expect(web).toEqual({ version: 2, experimentId: null, variantId: null });
  });

  it("records each opened call's version and variant, and counts them in the results", async () => {
    const a = await signedInUser(t);
    const id = await twoVersions(a);
    const experiment = await runningExperiment(a, id);
    const opened = [];
    for (const number of numbers.slice(0, 4)) {
      const room = await t.ctx.calls.openCallRoom(a, { ...phoneCall(id, number), joinTimeoutMs: 60_000 });
      opened.push(room.callId);
    }
    const rows = await Promise.all(
      opened.map(
        async (callId) => (await t.ctx.db.select().from(callVersions).where(eq(callVersions.callId, callId)))[0],
      ),
    );
    const agent = await requireAgent(t.ctx.db, a, id);
    for (const [i, row] of rows.entries()) {
      const expected = await chooseCallVersion(t.ctx.db, a, agent, phoneCall(id, numbers[i] as string), "x");
      expect(row).toMatchObject({
        experimentId: experiment.id,
        version: expected.version,
        variantId: expected.variantId,
      });
    }
    const results = await ok<{ variants: { version: number; calls: number; p_value: number | null }[] }>(
      api(a, "GET", `/agents/${id}/experiments/${experiment.id}/results`),
    );
    expect(results.variants.map((v) => v.version)).toEqual([1, 2]);
    expect(results.variants.reduce((sum, v) => sum + v.calls, 0)).toBe(4);
    for (const variant of results.variants) {
      expect(variant.calls).toBe(rows.filter((r) => r?.version === variant.version).length);
    }
  });

  it("shows each variant's figures from its ended calls' logs, and each call log its version", async () => {
    const a = await signedInUser(t);
    const id = await twoVersions(a);
    const experiment = await runningExperiment(a, id);
    const opened: { callId: string; version: number }[] = [];
    // Each call's log is ended as its follow-ups would leave it before the next opens (the
    // workspace's concurrent-call limit): v1's calls pass, v2's fail; v2 transfers, costs and waits more.
    for (const number of numbers.slice(0, 12)) {
      const room = await t.ctx.calls.openCallRoom(a, { ...phoneCall(id, number), joinTimeoutMs: 60_000 });
      const [row] = await t.ctx.db.select().from(callVersions).where(eq(callVersions.callId, room.callId));
      const version = row?.version ?? 0;
      opened.push({ callId: room.callId, version });
      const passed = version === 1;
      const analysis: CallAnalysis = {
        status: "done",
        summary: null,
        success: { scale: "pass_fail", verdict: passed ? "pass" : "fail", passed, reason: "" },
        structured_data: null,
        error: null,
        completed_at: new Date().toISOString(),
      };
      const turn: TurnMetricsEntry = {
        turn: 1,
        stt_ms: null,
        llm_ttft_ms: null,
        tts_ttfb_ms: null,
        voice_to_voice_ms: version * 500,
        engine_overhead_ms: null,
      };
      await t.ctx.db
        .update(callLogs)
        .set({
          status: "completed",
          endReason: version === 1 ? "caller_hangup" : "transferred",
          durationSeconds: version === 1 ? 60 : 120,
          cost: version === 1 ? 0.1 : 0.3,
          analysis,
          turnMetrics: [turn],
        })
        .where(eq(callLogs.id, room.callId));
    }
    const byVersion = (version: number) => opened.filter((c) => c.version === version);
    // The split of 12 numbers is fixed by the hash; both variants need calls for the figures below.
    expect(byVersion(1).length).toBeGreaterThan(0);
    expect(byVersion(2).length).toBeGreaterThan(0);
    const results = await ok<{ variants: Record<string, number | null>[] }>(
      api(a, "GET", `/agents/${id}/experiments/${experiment.id}/results`),
    );
    const [one, two] = results.variants;
    expect(one).toMatchObject({
      version: 1,
      calls: byVersion(1).length,
      judged: byVersion(1).length,
      success_rate: 1,
      avg_duration_seconds: 60,
      transfer_rate: 0,
      p50_latency_ms: 500,
      p95_latency_ms: 500,
    });
    expect(one?.cost_per_call).toBeCloseTo(0.1);
    expect(two).toMatchObject({
      version: 2,
      calls: byVersion(2).length,
      success_rate: 0,
      avg_duration_seconds: 120,
      transfer_rate: 1,
      p50_latency_ms: 1000,
    });
    expect(two?.cost_per_call).toBeCloseTo(0.3);

    const first = opened[0] as { callId: string; version: number };
    const log = await ok<{ agent_version: number | null }>(api(a, "GET", `/call-logs/${first.callId}`));
    expect(log.agent_version).toBe(first.version);
    const page = await ok<{ data: { id: string; agent_version: number | null }[] }>(
      api(a, "GET", `/call-logs?agent_id=${id}&items_per_page=50`),
    );
    expect(Object.fromEntries(page.data.map((item) => [item.id, item.agent_version]))).toEqual(
      Object.fromEntries(opened.map((c) => [c.callId, c.version])),
    );
  });

  it("moves draft → running ⇄ paused → ended, one active per assistant, and promotes the winner", async () => {
    const a = await signedInUser(t);
    const id = await twoVersions(a);
    const experiment = await runningExperiment(a, id);
    const base = `/agents/${id}/experiments`;
    const second = await ok<Experiment>(
      api(a, "POST", base, {
        name: "Another",
        variants: [
          { version: 1, percent: 30 },
          { version: 2, percent: 70 },
        ],
      }),
      201,
    );
    expect((await api(a, "POST", `${base}/${second.id}/start`)).statusCode).toBe(409);
    expect((await api(a, "POST", `${base}/${experiment.id}/start`)).statusCode).toBe(409);

    expect(await ok(api(a, "POST", `${base}/${experiment.id}/pause`))).toMatchObject({ status: "paused" });
    const agent = await requireAgent(t.ctx.db, a, id);
    const paused = await chooseCallVersion(t.ctx.db, a, agent, phoneCall(id, "+12025550001"), "c");
    expect(paused).toEqual({ version: 2, experimentId: null, variantId: null });
    expect(await ok(api(a, "POST", `${base}/${experiment.id}/resume`))).toMatchObject({ status: "running" });

    expect((await api(a, "POST", `${base}/${experiment.id}/promote`, { version: 7 })).statusCode).toBe(422);
    const promoted = await ok<Experiment>(api(a, "POST", `${base}/${experiment.id}/promote`, { version: 1 }));
    expect(promoted).toMatchObject({ status: "ended", winner_version: 1 });
    expect(await ok(api(a, "GET", `/agents/${id}`))).toMatchObject({ system_prompt: "One." });
    const [latest] = await ok<{ number: number; note: string }[]>(api(a, "GET", `/agents/${id}/versions`));
    expect(latest).toEqual(expect.objectContaining({ number: 3, note: 'Promoted v1 from experiment "Warmer prompt"' }));
    // The first experiment has ended: the other may start now.
    expect(await ok(api(a, "POST", `${base}/${second.id}/start`))).toMatchObject({ status: "running" });
  });

  it("refuses splits that do not add up to 100 or name missing versions, and hides other workspaces'", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const id = await twoVersions(a);
    const bad = (variants: unknown[]) => api(a, "POST", `/agents/${id}/experiments`, { name: "x", variants });
    expect(
      (
        await bad([
          { version: 1, percent: 50 },
          { version: 2, percent: 40 },
        ])
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await bad([
          { version: 1, percent: 50 },
          { version: 1, percent: 50 },
        ])
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await bad([
          { version: 1, percent: 50 },
          { version: 5, percent: 50 },
        ])
      ).statusCode,
    ).toBe(422);
    const experiment = await runningExperiment(a, id);
    expect((await api(b, "GET", `/agents/${id}/experiments`)).statusCode).toBe(404);
    expect((await api(b, "GET", `/agents/${id}/experiments/${experiment.id}/results`)).statusCode).toBe(404);
  });
});
