// Analytics (issue 33): the 90-day dashboard query over a year of 1,000,000 calls, on PGlite and on
// PostgreSQL. The calls are generated one by one (12 assistants with versions changing over the
// year, their own numbers, web/phone/widget/SIP channels, campaigns, realistic end reasons, a busy
// day and a quiet night) and summed into the rollup's hourly rows exactly as the live path sums them
// (rolledCallOf's key, histograms.ts's buckets); the rows go straight into the table. The query then
// goes through the API as the /analytics page asks it (GET /analytics/query, signed in) — as it opens
// (the day totals), filtered to one assistant and grouped by assistant (the daily rows with their
// dimensions) — with a second workspace's rows beside it. Target: p95 ≤ 300 ms on PostgreSQL, ≤ 1 s on PGlite.
// ANALYTICS_BENCH_CALLS sets the number of calls (default 1,000,000); ANALYTICS_BENCH_DB=pglite|postgres
// runs one database only.
import { performance } from "node:perf_hooks";
import { AnalyticsResult } from "@parley/contract";
import { bucketOf, DURATION_BOUNDS_S, LATENCY_BOUNDS_MS } from "../apps/server/src/modules/analytics/histograms.ts";
import { analyticsDaily, analyticsDailyTotals, analyticsRollups } from "../apps/server/src/modules/analytics/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "../apps/server/test/harness.ts";
import { createAssistant } from "../apps/server/test/support/calls.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "../apps/server/test/support/postgres-database.ts";
import type { BenchResult } from "./run.ts";
import { random } from "./seeded-random.ts";

const CALLS = Number(process.env.ANALYTICS_BENCH_CALLS ?? 1_000_000);
const DAYS = 365;
const ASSISTANTS = 12;
const QUERIES = 40;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DASHBOARD =
  "metrics=calls,attempts,minutes,success_rate,transfer_rate,error_rate,cost,p50_duration_seconds,p95_duration_seconds,latency_p50_voice_to_voice,latency_p95_voice_to_voice,latency_p95_model&bucket=day";

/** Calls by hour of day (UTC), busy in the day: the weights a day's calls are spread by. */
const HOUR_WEIGHTS = Array.from({ length: 24 }, (_, h) => (h >= 8 && h <= 19 ? 10 : h >= 6 && h <= 22 ? 4 : 1));
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
const END_REASONS: [string, number][] = [
  ["caller_hangup", 0.55],
  ["assistant_ended", 0.24],
  ["silence_timeout", 0.07],
  ["transferred", 0.06],
  ["not_joined", 0.04],
  ["assistant_error", 0.02],
  ["voice_error", 0.01],
  ["max_duration", 0.01],
];
const CHANNELS: [string, number][] = [
  ["phone", 0.5],
  ["web", 0.3],
  ["widget", 0.15],
  ["sip", 0.05],
];
const weighted = (rng: () => number, list: [string, number][]) => {
  let x = rng();
  for (const [v, w] of list) {
    x -= w;
    if (x <= 0) return v;
  }
  return list[0]?.[0] ?? "";
};

interface Row {
  key: (string | number | null)[];
  attempts: number;
  answered: number;
  errorCalls: number;
  transfers: number;
  analysed: number;
  passed: number;
  failed: number;
  durationSeconds: number;
  durationHist: number[];
  cost: number;
  v2v: number[];
  v2vSum: number;
  llm: number[];
  llmSum: number;
}

interface Seeded {
  hourly: Row[];
  daily: Row[];
  totals: Row[];
}

interface SeededCall {
  reason: string;
  seconds: number;
  analysed: boolean;
  passed: boolean;
  v2v: number[];
  llm: number[];
}

function emptyRow(key: (string | number | null)[]): Row {
  return {
    key,
    attempts: 0,
    answered: 0,
    errorCalls: 0,
    transfers: 0,
    analysed: 0,
    passed: 0,
    failed: 0,
    durationSeconds: 0,
    durationHist: new Array(DURATION_BOUNDS_S.length + 1).fill(0),
    cost: 0,
    v2v: new Array(LATENCY_BOUNDS_MS.length + 1).fill(0),
    v2vSum: 0,
    llm: new Array(LATENCY_BOUNDS_MS.length + 1).fill(0),
    llmSum: 0,
  };
}

const bump = (hist: number[], i: number) => {
  hist[i] = (hist[i] ?? 0) + 1;
};

/** Adds one call to its row, as rolledCallOf's contribution adds it. */
function addCall(map: Map<string, Row>, key: (string | number | null)[], c: SeededCall) {
  const id = key.join("|");
  let row = map.get(id);
  if (!row) {
    row = emptyRow(key);
    map.set(id, row);
  }
  row.attempts += 1;
  if (c.reason === "not_joined") return;
  row.answered += 1;
  row.durationSeconds += c.seconds;
  bump(row.durationHist, bucketOf(DURATION_BOUNDS_S, c.seconds));
  row.cost += c.seconds * 0.0015;
  if (c.reason.endsWith("_error")) {
    row.errorCalls += 1;
    row.failed += 1;
  }
  if (c.reason === "transferred") row.transfers += 1;
  if (c.analysed) row.analysed += 1;
  if (c.passed) row.passed += 1;
  for (const v of c.v2v) {
    bump(row.v2v, bucketOf(LATENCY_BOUNDS_MS, v));
    row.v2vSum += v;
  }
  for (const v of c.llm) {
    bump(row.llm, bucketOf(LATENCY_BOUNDS_MS, v));
    row.llmSum += v;
  }
}

/** A year of calls summed into hourly rollup rows and daily ones (the zone is UTC), as the live path sums them. */
function seedRows(agents: string[], calls: number, seed: number): Seeded {
  const rng = random(seed);
  const hours = new Map<string, Row>();
  const days = new Map<string, Row>();
  const totals = new Map<string, Row>();
  const start = Date.UTC(2025, 11, 1);
  const perDay = calls / DAYS;
  let made = 0;
  for (let day = 0; day < DAYS && made < calls; day += 1) {
    for (let hour = 0; hour < 24; hour += 1) {
      const n =
        day === DAYS - 1 && hour === 23 ? calls - made : Math.round((perDay * (HOUR_WEIGHTS[hour] ?? 1)) / HOUR_TOTAL);
      for (let i = 0; i < n && made < calls; i += 1, made += 1) {
        const a = Math.floor(rng() ** 1.6 * ASSISTANTS);
        const channel = weighted(rng, CHANNELS);
        const reason = weighted(rng, END_REASONS);
        const phone = channel === "phone" || channel === "sip";
        const campaign = phone && rng() < 0.1 ? `00000000-0000-4000-8000-00000000000${a % 4}` : null;
        const dims = [
          agents[a] ?? null,
          1 + Math.floor((day + a * 17) / 120),
          phone ? `+1555000${String(a).padStart(4, "0")}` : null,
          campaign,
          channel,
          reason,
        ];
        const analysed = rng() < 0.7;
        const call: SeededCall = {
          reason,
          seconds: 20 + rng() * rng() * 600,
          analysed,
          passed: analysed && rng() < 0.8,
          v2v: Array.from({ length: 4 }, () => 500 + rng() * rng() * 2500),
          llm: Array.from({ length: 4 }, () => 200 + rng() * rng() * 900),
        };
        const at = start + day * DAY_MS + hour * HOUR_MS;
        addCall(hours, [at, ...dims], call);
        const date = new Date(at).toISOString().slice(0, 10);
        addCall(days, [date, ...dims], call);
        addCall(totals, [date], call);
      }
    }
  }
  return { hourly: [...hours.values()], daily: [...days.values()], totals: [...totals.values()] };
}

/**
 * The daily rows, which queries read. The hourly rows (counted in the table, the alerts' and a
 * zone change's source) are left out: no query of the bench reads them, and at a million calls
 * they would take minutes to write on PGlite. ANALYTICS_BENCH_HOURLY=1 writes them too.
 */
async function insertRows(t: TestApp, workspaceId: string, seeded: Seeded) {
  if (process.env.ANALYTICS_BENCH_HOURLY === "1") await insertInto(t, workspaceId, seeded.hourly, "hour");
  await insertInto(t, workspaceId, seeded.daily, "day");
  await insertInto(t, workspaceId, seeded.totals, "total");
}

async function insertInto(t: TestApp, workspaceId: string, rows: Row[], grain: "hour" | "day" | "total") {
  const zeros = new Array(LATENCY_BOUNDS_MS.length + 1).fill(0);
  for (let i = 0; i < rows.length; i += 1000) {
    const values = rows.slice(i, i + 1000).map((r) => ({
      workspaceId,
      agentId: r.key[1] as string,
      agentVersion: r.key[2] as number,
      phoneNumber: r.key[3] as string | null,
      batchCallId: r.key[4] as string | null,
      channel: r.key[5] as "web",
      endReason: r.key[6] as string,
      agentName: "Bench",
      attempts: r.attempts,
      answered: r.answered,
      failed: r.failed,
      errorCalls: r.errorCalls,
      transfers: r.transfers,
      analysed: r.analysed,
      passed: r.passed,
      durationSeconds: r.durationSeconds,
      durationHist: r.durationHist,
      cost: r.cost,
      costLlm: r.cost * 0.4,
      costStt: r.cost * 0.2,
      costTts: r.cost * 0.3,
      costTelephony: r.cost * 0.1,
      latEotHist: zeros,
      latSttHist: zeros,
      latLlmHist: r.llm,
      latTtsHist: zeros,
      latV2vHist: r.v2v,
      latLlmSum: r.llmSum,
      latV2vSum: r.v2vSum,
    }));
    if (grain === "hour")
      await t.ctx.db
        .insert(analyticsRollups)
        .values(values.map((v, j) => ({ ...v, hour: new Date(rows[i + j]?.key[0] as number) })));
    else if (grain === "day")
      await t.ctx.db
        .insert(analyticsDaily)
        .values(values.map((v, j) => ({ ...v, day: rows[i + j]?.key[0] as string })));
    else
      await t.ctx.db.insert(analyticsDailyTotals).values(
        values.map(
          (
            { agentId: _a, agentVersion: _v, phoneNumber: _p, batchCallId: _b, channel: _c, endReason: _e, ...v },
            j,
          ) => ({
            ...v,
            day: rows[i + j]?.key[0] as string,
          }),
        ),
      );
  }
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

async function measure(kind: "pglite" | "postgres"): Promise<Record<string, string | number>[]> {
  let pgDb: PostgresDatabase | undefined;
  if (kind === "postgres") pgDb = await freshPostgresDatabase("parley_analytics_bench");
  const t = await createTestApp(pgDb ? { DATABASE_URL: pgDb.url } : {});
  try {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    const agents: string[] = [];
    for (let i = 0; i < ASSISTANTS; i += 1) agents.push(await createAssistant(t, user.token, { name: `Bench ${i}` }));
    const seedStarted = performance.now();
    const rows = seedRows(agents, CALLS, 7);
    await insertRows(t, user.workspaceId, rows);
    // Another workspace's year beside it (a tenth as many calls): the tenant filter must hold in the plan.
    await insertRows(t, other.workspaceId, seedRows(agents, Math.round(CALLS / 10), 11));
    await t.ctx.db.execute("analyze analytics_rollups");
    await t.ctx.db.execute("analyze analytics_daily");
    await t.ctx.db.execute("analyze analytics_daily_totals");
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const to = "2026-11-30";
    const from = "2026-09-01";
    const queries: [string, string][] = [
      ["90-day dashboard (days)", `from=${from}&to=${to}&${DASHBOARD}`],
      // The busiest assistant's page: a filter reads the daily rows with their dimensions.
      ["90-day dashboard, one assistant (days)", `from=${from}&to=${to}&${DASHBOARD}&assistant_id=${agents[0]}`],
      [
        "90-day by assistant (weeks)",
        `from=${from}&to=${to}&metrics=calls,minutes,success_rate,cost,latency_p95_voice_to_voice&bucket=week&group_by=assistant`,
      ],
    ];
    const out: Record<string, string | number>[] = [];
    for (const [name, query] of queries) {
      const times: number[] = [];
      let calls = 0;
      for (let i = 0; i < QUERIES + 3; i += 1) {
        const started = performance.now();
        const res = await call(t, "GET", `/api/v1/analytics/query?${query}`, { token: user.token });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`query failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
        calls = Number(AnalyticsResult.parse(res.json()).totals.calls ?? 0);
        if (i >= 3) times.push(ms);
      }
      times.sort((a, b) => a - b);
      out.push({
        database: kind,
        query: name,
        "calls seeded": CALLS,
        "hourly rows": rows.hourly.length,
        "daily rows": rows.daily.length,
        "daily rows in range": rows.daily.filter((r) => String(r.key[0]) >= from && String(r.key[0]) <= to).length,
        "calls in range": calls,
        "p50 ms": Math.round(percentile(times, 0.5)),
        "p95 ms": Math.round(percentile(times, 0.95)),
        "target p95 ms": kind === "postgres" ? 300 : 1000,
        "seed s": Math.round(seedSeconds),
      });
    }
    return out;
  } finally {
    await t.close();
    await pgDb?.drop();
  }
}

export async function run(): Promise<BenchResult> {
  const only = process.env.ANALYTICS_BENCH_DB;
  const kinds = (only ? [only] : ["postgres", "pglite"]) as ("pglite" | "postgres")[];
  const rows: Record<string, string | number>[] = [];
  for (const kind of kinds) rows.push(...(await measure(kind)));
  return { name: "analytics", rows };
}
