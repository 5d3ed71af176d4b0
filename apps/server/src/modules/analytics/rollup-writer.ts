import type { CallLog } from "@parley/contract";
import { eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CallCosts, type Contribution, type RolledCall, rolledCallOf } from "./call-contribution.ts";
import { bucketCount, DURATION_BOUNDS_S, LATENCY_BOUNDS_MS } from "./histograms.ts";
import { lockWorkspaceRollup } from "./rollup-lock.ts";
import { analyticsCalls, analyticsDaily, analyticsDailyTotals, analyticsRollups } from "./schema.ts";
import { timeZoneOf } from "./settings.ts";

const COST_KEYS = ["cost", "costLlm", "costStt", "costTts", "costTelephony", "costPlatform"] as const;
const zeros = (n: number) => new Array<number>(n).fill(0);

/** A change that adds nothing but what is given (an analysis verdict, a final cost). */
function emptyContribution(): Contribution {
  const latency = { hist: zeros(bucketCount(LATENCY_BOUNDS_MS)), sum: 0 };
  return {
    attempts: 0,
    answered: 0,
    failed: 0,
    errorCalls: 0,
    transfers: 0,
    analysed: 0,
    passed: 0,
    durationSeconds: 0,
    durationHist: zeros(bucketCount(DURATION_BOUNDS_S)),
    cost: 0,
    costLlm: 0,
    costStt: 0,
    costTts: 0,
    costTelephony: 0,
    costPlatform: 0,
    latency: {
      end_of_turn: latency,
      transcriber: latency,
      model: latency,
      voice: latency,
      voice_to_voice: latency,
    },
  };
}

const plus = (column: PgColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`;
/** Adds two histograms bucket by bucket (same length: the bounds are fixed). */
const plusHist = (column: PgColumn) =>
  sql`array(select a + b from unnest(${column}, excluded.${sql.identifier(column.name)}) with ordinality as u(a, b, i) order by i)`;

type RollupTable = typeof analyticsRollups | typeof analyticsDaily | typeof analyticsDailyTotals;

const SUMMED_KEYS = [
  "attempts",
  "answered",
  "failed",
  "errorCalls",
  "transfers",
  "analysed",
  "passed",
  "durationSeconds",
  "cost",
  "costLlm",
  "costStt",
  "costTts",
  "costTelephony",
  "costPlatform",
  "latEotSum",
  "latSttSum",
  "latLlmSum",
  "latTtsSum",
  "latV2vSum",
] as const;
const HISTOGRAM_KEYS = ["durationHist", "latEotHist", "latSttHist", "latLlmHist", "latTtsHist", "latV2vHist"] as const;

/**
 * The columns a row sums into, as `column = column + excluded.column` (histograms bucket by bucket),
 * keyed by the table's property names: drizzle drops `set` keys that are not (an SQL name would be).
 */
function onConflictSet(t: RollupTable): Record<string, SQL> {
  return {
    ...Object.fromEntries(SUMMED_KEYS.map((k) => [k, plus(t[k])])),
    ...Object.fromEntries(HISTOGRAM_KEYS.map((k) => [k, plusHist(t[k])])),
    // A renamed assistant's row takes its latest name.
    agentName: sql`excluded.agent_name`,
  };
}

const keyColumns = (t: typeof analyticsRollups | typeof analyticsDaily, time: PgColumn) => [
  t.workspaceId,
  time,
  t.agentId,
  t.agentVersion,
  t.phoneNumber,
  t.batchCallId,
  t.channel,
  t.endReason,
  t.squadMember,
];

function measuresOf(rolled: RolledCall, c: Contribution) {
  const { latency: l } = c;
  const { hour: _hour, ...dims } = rolled.key;
  return {
    ...dims,
    agentName: rolled.agentName,
    attempts: c.attempts,
    answered: c.answered,
    failed: c.failed,
    errorCalls: c.errorCalls,
    transfers: c.transfers,
    analysed: c.analysed,
    passed: c.passed,
    durationSeconds: c.durationSeconds,
    durationHist: c.durationHist,
    cost: c.cost,
    costLlm: c.costLlm,
    costStt: c.costStt,
    costTts: c.costTts,
    costTelephony: c.costTelephony,
    costPlatform: c.costPlatform,
    latEotHist: l.end_of_turn.hist,
    latSttHist: l.transcriber.hist,
    latLlmHist: l.model.hist,
    latTtsHist: l.voice.hist,
    latV2vHist: l.voice_to_voice.hist,
    latEotSum: l.end_of_turn.sum,
    latSttSum: l.transcriber.sum,
    latLlmSum: l.model.sum,
    latTtsSum: l.voice.sum,
    latV2vSum: l.voice_to_voice.sum,
  };
}

/**
 * Adds a contribution to its hourly row, its day's row and its day's total (created at the first), the day being
 * the one its UTC hour falls on in the workspace's zone — computed by the database, as the rebuild
 * after a change of zone computes it.
 */
async function addToRollup(db: Executor, tenant: TenantScope, zone: string, rolled: RolledCall, c: Contribution) {
  const values = measuresOf(rolled, c);
  await db
    .insert(analyticsRollups)
    .values(scoped(analyticsRollups, tenant).values({ ...values, hour: rolled.key.hour }))
    .onConflictDoUpdate({
      target: keyColumns(analyticsRollups, analyticsRollups.hour),
      set: onConflictSet(analyticsRollups),
    });
  const day = sql<string>`(${rolled.key.hour.toISOString()}::timestamptz at time zone ${zone})::date`;
  await db
    .insert(analyticsDaily)
    .values(scoped(analyticsDaily, tenant).values({ ...values, day }))
    .onConflictDoUpdate({ target: keyColumns(analyticsDaily, analyticsDaily.day), set: onConflictSet(analyticsDaily) });
  const {
    agentName: _name,
    agentId: _a,
    agentVersion: _v,
    phoneNumber: _p,
    batchCallId: _b,
    channel: _c,
    endReason: _e,
    squadMember: _s,
    ...sums
  } = values;
  await db
    .insert(analyticsDailyTotals)
    .values(scoped(analyticsDailyTotals, tenant).values({ ...sums, day }))
    .onConflictDoUpdate({
      target: [analyticsDailyTotals.workspaceId, analyticsDailyTotals.day],
      set: onConflictSet(analyticsDailyTotals),
    });
}

/**
 * Brings an ended call into the rollup, or brings its rollup in line with the call now: the first
 * time, the whole call is added; later (its post-call analysis landed, which also adds the analysis's
 * tokens to its cost), only the change of verdict and cost. Safe to run twice and from several
 * processes: the call's row in analytics_calls is taken with FOR UPDATE.
 */
export async function rollCall(db: Executor, tenant: TenantScope, call: CallLog): Promise<void> {
  const rolled = rolledCallOf(call);
  const costs = Object.fromEntries(COST_KEYS.map((k) => [k, rolled.contribution[k]])) as unknown as CallCosts;
  await db.transaction(async (tx) => {
    await lockWorkspaceRollup(tx, tenant);
    const zone = await timeZoneOf(tx, tenant);
    const [inserted] = await tx
      .insert(analyticsCalls)
      .values(
        scoped(analyticsCalls, tenant).values({
          callId: call.id,
          ...rolled.key,
          endedAt: rolled.endedAt,
          answered: rolled.answered,
          errorEnd: rolled.errorEnd,
          passed: rolled.passed,
          ...costs,
        }),
      )
      .onConflictDoNothing()
      .returning({ callId: analyticsCalls.callId });
    if (inserted) return addToRollup(tx, tenant, zone, rolled, rolled.contribution);

    const [before] = await tx
      .select()
      .from(analyticsCalls)
      .where(scoped(analyticsCalls, tenant).where(eq(analyticsCalls.callId, call.id)))
      .for("update");
    if (!before) return;
    const change = emptyContribution();
    change.analysed = Number(rolled.passed !== null) - Number(before.passed !== null);
    change.passed = Number(rolled.passed === true) - Number(before.passed === true);
    for (const k of COST_KEYS) change[k] = costs[k] - before[k];
    if (change.analysed === 0 && change.passed === 0 && COST_KEYS.every((k) => change[k] === 0)) return;
    await tx
      .update(analyticsCalls)
      .set({ passed: rolled.passed, ...costs })
      .where(scoped(analyticsCalls, tenant).where(eq(analyticsCalls.callId, call.id)));
    // The change goes to the row the call was first added to (its key as it was then).
    const key = {
      hour: before.hour,
      agentId: before.agentId,
      agentVersion: before.agentVersion,
      phoneNumber: before.phoneNumber,
      batchCallId: before.batchCallId,
      channel: before.channel,
      endReason: before.endReason,
      squadMember: before.squadMember,
    };
    await addToRollup(tx, tenant, zone, { ...rolled, key }, change);
  });
}

/** A contribution's plain counts and sums (the rest are histograms). */
const COUNTED_KEYS = [
  "attempts",
  "answered",
  "failed",
  "errorCalls",
  "transfers",
  "analysed",
  "passed",
  "durationSeconds",
  ...COST_KEYS,
] as const;

/** Two contributions to the same row as one: counts and sums added, histograms bucket by bucket. */
function combined(a: Contribution, b: Contribution): Contribution {
  const add = (x: number[], y: number[]) => x.map((v, i) => v + (y[i] ?? 0));
  const sum = { ...a, durationHist: add(a.durationHist, b.durationHist), latency: { ...a.latency } };
  for (const k of COUNTED_KEYS) sum[k] = a[k] + b[k];
  for (const k of Object.keys(sum.latency) as (keyof Contribution["latency"])[])
    sum.latency[k] = { hist: add(a.latency[k].hist, b.latency[k].hist), sum: a.latency[k].sum + b.latency[k].sum };
  return sum;
}

/**
 * Brings several ended calls of one workspace into the rollup in one transaction: one lock, one
 * insert of their analytics_calls rows, and one upsert per rollup row they share (calls of the same
 * hour, assistant, channel… add up first). Fifty calls hanging up together were fifty transactions of
 * nine statements each, which held PGlite's thread and PostgreSQL's backends while the server
 * answered requests. A call rolled before (its analysis or cost changed since) brings its change
 * through rollCall.
 */
export async function rollCalls(db: Executor, tenant: TenantScope, calls: CallLog[]): Promise<void> {
  if (calls.length === 0) return;
  const rolled = calls.map((call) => ({ call, rolled: rolledCallOf(call) }));
  const fresh = await db.transaction(async (tx) => {
    await lockWorkspaceRollup(tx, tenant);
    const zone = await timeZoneOf(tx, tenant);
    const inserted = await tx
      .insert(analyticsCalls)
      .values(
        rolled.map(({ call, rolled: r }) =>
          scoped(analyticsCalls, tenant).values({
            callId: call.id,
            ...r.key,
            endedAt: r.endedAt,
            answered: r.answered,
            errorEnd: r.errorEnd,
            passed: r.passed,
            ...(Object.fromEntries(COST_KEYS.map((k) => [k, r.contribution[k]])) as unknown as CallCosts),
          }),
        ),
      )
      .onConflictDoNothing()
      .returning({ callId: analyticsCalls.callId });
    const ids = new Set(inserted.map((row) => row.callId));
    const rows = new Map<string, { rolled: RolledCall; contribution: Contribution }>();
    for (const { call, rolled: r } of rolled) {
      if (!ids.has(call.id)) continue;
      const key = JSON.stringify(r.key);
      const row = rows.get(key);
      if (row) row.contribution = combined(row.contribution, r.contribution);
      else rows.set(key, { rolled: r, contribution: r.contribution });
    }
    for (const row of rows.values()) await addToRollup(tx, tenant, zone, row.rolled, row.contribution);
    return ids;
  });
  for (const { call } of rolled) if (!fresh.has(call.id)) await rollCall(db, tenant, call);
}
