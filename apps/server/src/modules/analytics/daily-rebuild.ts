import { sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { bucketCount, DURATION_BOUNDS_S, LATENCY_BOUNDS_MS } from "./histograms.ts";
import { analyticsDaily as d, analyticsRollups as h, analyticsDailyTotals as totals } from "./schema.ts";

const summed = (column: PgColumn) => sql`sum(${column})`;
/** A histogram column summed bucket by bucket over the group's rows. */
function summedHistogram(column: PgColumn, buckets: number) {
  const parts = Array.from(
    { length: buckets },
    (_, i) => sql`coalesce(sum(${column}[${sql.raw(String(i + 1))}]), 0)::int`,
  );
  return sql`array[${sql.join(parts, sql`, `)}]`;
}

/**
 * Rebuilds a workspace's daily rows and day totals from its hourly ones for a new time zone: each hour goes to the
 * day it falls on there (exact for zones a whole number of hours from UTC; in a zone such as
 * Asia/Kolkata, an hour that straddles midnight counts on the day it starts). Run under the
 * workspace's rollup lock (rollup-lock.ts).
 */
export async function rebuildDailyRollup(db: Executor, tenant: TenantScope, zone: string): Promise<void> {
  await db.delete(d).where(scoped(d, tenant).where());
  await db.delete(totals).where(scoped(totals, tenant).where());
  const lat = bucketCount(LATENCY_BOUNDS_MS);
  const sums = sql`${summed(h.attempts)}, ${summed(h.answered)}, ${summed(h.failed)}, ${summed(h.errorCalls)},
      ${summed(h.transfers)}, ${summed(h.analysed)}, ${summed(h.passed)}, ${summed(h.durationSeconds)},
      ${summedHistogram(h.durationHist, bucketCount(DURATION_BOUNDS_S))},
      ${summed(h.cost)}, ${summed(h.costLlm)}, ${summed(h.costStt)}, ${summed(h.costTts)}, ${summed(h.costTelephony)},
      ${summed(h.costPlatform)},
      ${summedHistogram(h.latEotHist, lat)}, ${summedHistogram(h.latSttHist, lat)}, ${summedHistogram(h.latLlmHist, lat)},
      ${summedHistogram(h.latTtsHist, lat)}, ${summedHistogram(h.latV2vHist, lat)},
      ${summed(h.latEotSum)}, ${summed(h.latSttSum)}, ${summed(h.latLlmSum)}, ${summed(h.latTtsSum)}, ${summed(h.latV2vSum)}`;
  const sumColumns = sql.raw(`attempts, answered, failed, error_calls, transfers, analysed, passed, duration_seconds,
      duration_hist, cost, cost_llm, cost_stt, cost_tts, cost_telephony, cost_platform, lat_eot_hist, lat_stt_hist,
      lat_llm_hist, lat_tts_hist, lat_v2v_hist, lat_eot_sum, lat_stt_sum, lat_llm_sum, lat_tts_sum, lat_v2v_sum`);
  const dims = sql`${h.agentId}, ${h.agentVersion}, ${h.phoneNumber}, ${h.batchCallId}, ${h.channel}, ${h.endReason}, ${h.squadMember}`;
  const localDay = sql`(${h.hour} at time zone ${zone})::date`;
  await db.execute(sql`
    insert into ${d} (workspace_id, day, agent_id, agent_version, phone_number, batch_call_id, channel, end_reason,
      squad_member, agent_name, ${sumColumns})
    select ${h.workspaceId}, ${localDay}, ${dims}, max(${h.agentName}), ${sums}
    from ${h}
    where ${scoped(h, tenant).where()}
    group by ${h.workspaceId}, 2, ${dims}`);
  await db.execute(sql`
    insert into ${totals} (workspace_id, day, ${sumColumns})
    select ${h.workspaceId}, ${localDay}, ${sums}
    from ${h}
    where ${scoped(h, tenant).where()}
    group by ${h.workspaceId}, 2`);
}
