import type { LatencyComponent } from "@parley/contract";
import { desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { bucketCount, LATENCY_BOUNDS_MS, quantileOf } from "./histograms.ts";
import { type AlertRuleRow, analyticsCalls as calls, analyticsRollups as rollups } from "./schema.ts";
import { timeZoneOf } from "./settings.ts";

/** What a rule measured now, whether that is a breach, and in words. Null: not enough calls yet. */
export interface Measurement {
  value: number;
  breach: boolean;
  message: string;
}

const HOUR_MS = 3_600_000;
const HIST: Record<LatencyComponent, PgColumn> = {
  end_of_turn: rollups.latEotHist,
  transcriber: rollups.latSttHist,
  model: rollups.latLlmHist,
  voice: rollups.latTtsHist,
  voice_to_voice: rollups.latV2vHist,
};
const COMPONENT_WORDS: Record<LatencyComponent, string> = {
  end_of_turn: "end-of-turn wait",
  transcriber: "transcriber",
  model: "model first token",
  voice: "voice first audio",
  voice_to_voice: "voice-to-voice",
};
const pct = (n: number) => `${Math.round(n * 10) / 10}%`;

/** The share (percent) of the last N calls for which `flag` holds; null before there are N. */
async function shareOfLastCalls(db: Executor, tenant: TenantScope, rule: AlertRuleRow, flag: "passed" | "errorEnd") {
  const column = flag === "passed" ? calls.passed : calls.errorEnd;
  const rows = await db
    .select({ yes: column })
    .from(calls)
    .where(
      scoped(calls, tenant).where(
        rule.agentId ? eq(calls.agentId, rule.agentId) : undefined,
        // A success rate is over analysed calls; an error rate over every ended call.
        flag === "passed" ? isNotNull(calls.passed) : undefined,
      ),
    )
    .orderBy(desc(calls.endedAt))
    .limit(rule.windowCalls);
  if (rows.length < rule.windowCalls) return null;
  return (rows.filter((r) => r.yes === true).length / rows.length) * 100;
}

async function p95Latency(db: Executor, tenant: TenantScope, rule: AlertRuleRow, now: Date) {
  const since = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (rule.windowHours - 1) * HOUR_MS);
  const column = HIST[rule.component];
  const buckets = Array.from(
    { length: bucketCount(LATENCY_BOUNDS_MS) },
    (_, i) => sql`coalesce(sum(${column}[${sql.raw(String(i + 1))}]), 0)::int`,
  );
  const [row] = await db
    .select({ hist: sql<number[]>`array[${sql.join(buckets, sql`, `)}]` })
    .from(rollups)
    .where(
      scoped(rollups, tenant).where(
        gte(rollups.hour, since),
        rule.agentId ? eq(rollups.agentId, rule.agentId) : undefined,
      ),
    );
  return quantileOf(LATENCY_BOUNDS_MS, (row?.hist ?? []).map(Number), 0.95);
}

/** Spend of the workspace's calendar month so far (its zone), as analytics sums it. */
async function monthSpend(db: Executor, tenant: TenantScope, rule: AlertRuleRow, now: Date) {
  const zone = await timeZoneOf(db, tenant);
  const [row] = await db
    .select({ cost: sql<number>`coalesce(sum(${rollups.cost}), 0)::float8` })
    .from(rollups)
    .where(
      scoped(rollups, tenant).where(
        sql`date_trunc('month', ${rollups.hour} at time zone ${zone}) = date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${zone})`,
        gte(rollups.hour, new Date(now.getTime() - 32 * 24 * HOUR_MS)),
        rule.agentId ? eq(rollups.agentId, rule.agentId) : undefined,
      ),
    );
  return Number(row?.cost ?? 0);
}

/** Measures a rule against the calls now. */
export async function measureRule(db: Executor, rule: AlertRuleRow, now: Date): Promise<Measurement | null> {
  const tenant = { workspaceId: rule.workspaceId };
  switch (rule.kind) {
    case "success_rate_below": {
      const value = await shareOfLastCalls(db, tenant, rule, "passed");
      if (value === null) return null;
      return {
        value,
        breach: value < rule.threshold,
        message: `Success rate ${pct(value)} over the last ${rule.windowCalls} analysed calls (alert below ${pct(rule.threshold)}).`,
      };
    }
    case "error_rate_above": {
      const value = await shareOfLastCalls(db, tenant, rule, "errorEnd");
      if (value === null) return null;
      return {
        value,
        breach: value > rule.threshold,
        message: `${pct(value)} of the last ${rule.windowCalls} calls ended with an error (alert above ${pct(rule.threshold)}).`,
      };
    }
    case "p95_latency_above": {
      const value = await p95Latency(db, tenant, rule, now);
      if (value === null) return null;
      return {
        value: Math.round(value),
        breach: value > rule.threshold,
        message: `p95 ${COMPONENT_WORDS[rule.component]} latency ${Math.round(value)} ms over the last ${rule.windowHours} h (alert above ${rule.threshold} ms).`,
      };
    }
    case "spend_above": {
      const value = await monthSpend(db, tenant, rule, now);
      return {
        value,
        breach: value > rule.threshold,
        message: `Spend this month $${value.toFixed(2)} (budget $${rule.threshold.toFixed(2)}).`,
      };
    }
  }
}
