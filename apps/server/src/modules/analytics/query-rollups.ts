import type {
  AnalyticsDimension,
  AnalyticsKey,
  AnalyticsQueryParsed,
  AnalyticsResult,
  AnalyticsRow,
  LatencyComponent,
} from "@parley/contract";
import { eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { bucketCount, DURATION_BOUNDS_S, LATENCY_BOUNDS_MS } from "./histograms.ts";
import { histogramsNeeded, metricValues, type Sums } from "./metric-values.ts";
import { analyticsDailyTotals as dayTotals, analyticsDaily as r } from "./schema.ts";
import { bucketsBetween } from "./time-buckets.ts";

/** The daily rows with dimensions, or the workspace's day totals: both hold the same sums. */
type MeasureTable = typeof r | typeof dayTotals;

const latencyColumns = (t: MeasureTable): Record<LatencyComponent, { hist: PgColumn; sum: PgColumn }> => ({
  end_of_turn: { hist: t.latEotHist, sum: t.latEotSum },
  transcriber: { hist: t.latSttHist, sum: t.latSttSum },
  model: { hist: t.latLlmHist, sum: t.latLlmSum },
  voice: { hist: t.latTtsHist, sum: t.latTtsSum },
  voice_to_voice: { hist: t.latV2vHist, sum: t.latV2vSum },
});

const summedColumns = (t: MeasureTable): Record<string, PgColumn> => ({
  attempts: t.attempts,
  answered: t.answered,
  failed: t.failed,
  errorCalls: t.errorCalls,
  transfers: t.transfers,
  analysed: t.analysed,
  passed: t.passed,
  durationSeconds: t.durationSeconds,
  cost: t.cost,
  costLlm: t.costLlm,
  costStt: t.costStt,
  costTts: t.costTts,
  costTelephony: t.costTelephony,
  costPlatform: t.costPlatform,
});
const SUMMED_NAMES = Object.keys(summedColumns(r));
const LATENCY_NAMES = Object.keys(latencyColumns(r)) as LatencyComponent[];

/** The rollup columns a dimension groups by. */
const DIMENSION_COLUMNS: Record<AnalyticsDimension, PgColumn[]> = {
  assistant: [r.agentId],
  version: [r.agentId, r.agentVersion],
  phone_number: [r.phoneNumber],
  campaign: [r.batchCallId],
  channel: [r.channel],
  end_reason: [r.endReason],
  squad_member: [r.squadMember],
};

/** The day's bucket: itself, or its ISO week's Monday, or its month's first day. */
function bucketExpression(bucket: AnalyticsQueryParsed["bucket"], t: MeasureTable): SQL<string> | null {
  if (bucket === "total") return null;
  if (bucket === "day") return sql<string>`to_char(${t.day}, 'YYYY-MM-DD')`;
  return sql<string>`to_char(date_trunc(${sql.raw(`'${bucket}'`)}, ${t.day}), 'YYYY-MM-DD')`;
}

/** The range is in the workspace's days, which the daily rows are already in. */
function dimensionFilters(q: AnalyticsQueryParsed): (SQL | undefined)[] {
  return [
    q.assistant_id ? eq(r.agentId, q.assistant_id) : undefined,
    q.version !== undefined ? eq(r.agentVersion, q.version) : undefined,
    q.phone_number ? eq(r.phoneNumber, q.phone_number) : undefined,
    q.campaign_id ? eq(r.batchCallId, q.campaign_id) : undefined,
    q.channel ? eq(r.channel, q.channel) : undefined,
    q.end_reason ? eq(r.endReason, q.end_reason) : undefined,
    q.squad_member ? eq(r.squadMember, q.squad_member) : undefined,
  ];
}

type Selection = Record<string, SQL>;

/** The sums a query reads: always the counts and money, the histograms its metrics need. */
function selectionOf(q: AnalyticsQueryParsed, t: MeasureTable): Selection {
  const select: Selection = {};
  for (const [name, column] of Object.entries(summedColumns(t)))
    select[name] = sql`coalesce(sum(${column}), 0)::float8`;
  const needed = histogramsNeeded(q.metrics);
  const histogram = (prefix: string, column: PgColumn, buckets: number) => {
    for (let i = 1; i <= buckets; i += 1)
      select[`${prefix}_${i}`] = sql`coalesce(sum(${column}[${sql.raw(String(i))}]), 0)::int`;
  };
  if (needed.duration) histogram("dh", t.durationHist, bucketCount(DURATION_BOUNDS_S));
  for (const component of needed.latency) {
    const { hist, sum } = latencyColumns(t)[component];
    select[`ls_${component}`] = sql`coalesce(sum(${sum}), 0)::float8`;
    histogram(`lh_${component}`, hist, bucketCount(LATENCY_BOUNDS_MS));
  }
  return select;
}

function sumsOf(row: Record<string, unknown>): Sums {
  const num = (k: string) => Number(row[k] ?? 0);
  const hist = (prefix: string, buckets: number) =>
    `${prefix}_1` in row ? Array.from({ length: buckets }, (_, i) => num(`${prefix}_${i + 1}`)) : undefined;
  const latency = {} as Sums["latency"];
  for (const component of LATENCY_NAMES)
    latency[component] = { sum: num(`ls_${component}`), hist: hist(`lh_${component}`, bucketCount(LATENCY_BOUNDS_MS)) };
  return {
    ...(Object.fromEntries(SUMMED_NAMES.map((k) => [k, num(k)])) as Omit<Sums, "latency" | "durationHist">),
    durationHist: hist("dh", bucketCount(DURATION_BOUNDS_S)),
    latency,
  };
}

/**
 * One aggregate over the range. A query that neither filters nor groups by a dimension reads the
 * day totals (one row a day); any other reads the daily rows with their dimensions.
 */
async function runQuery(db: Executor, tenant: TenantScope, q: AnalyticsQueryParsed, grouped: boolean) {
  const filters = dimensionFilters(q).filter((f): f is SQL => f !== undefined);
  const byDimension = filters.length > 0 || (grouped && q.group_by.length > 0);
  const t: MeasureTable = byDimension ? r : dayTotals;
  const select = selectionOf(q, t);
  const keys: SQL[] = [];
  const bucket = grouped ? bucketExpression(q.bucket, t) : null;
  if (bucket) {
    select.bucket = bucket;
    keys.push(bucket);
  }
  if (grouped && byDimension) {
    const columns = [...new Set(q.group_by.flatMap((d) => DIMENSION_COLUMNS[d]))];
    for (const column of columns) {
      select[`k_${column.name}`] = sql`${column}`;
      keys.push(sql`${column}`);
    }
    if (q.group_by.some((d) => d === "assistant" || d === "version")) select.agent_name = sql`max(${r.agentName})`;
  }
  const range = [gte(t.day, q.from), lte(t.day, q.to)];
  const query = byDimension
    ? db
        .select(select)
        .from(r)
        .where(scoped(r, tenant).where(...range, ...filters))
    : db
        .select(select)
        .from(dayTotals)
        .where(scoped(dayTotals, tenant).where(...range));
  return (keys.length > 0 ? await query.groupBy(...keys) : await query) as Record<string, unknown>[];
}

/** A campaign's name (the batch-calls module's, handed in by app.ts); null once it is deleted. */
export type CampaignName = (db: Executor, tenant: TenantScope, id: string) => Promise<string | null>;

const text = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

/** A group's key on each dimension, with what to call it. */
async function keysOf(
  db: Executor,
  tenant: TenantScope,
  dims: readonly AnalyticsDimension[],
  row: Record<string, unknown>,
  campaigns: Map<string, Promise<string>>,
  campaignName: CampaignName,
) {
  const keys: AnalyticsRow["keys"] = {};
  for (const dim of dims) {
    const [first, second] = DIMENSION_COLUMNS[dim].map((c) => text(row[`k_${c.name}`]));
    let key: AnalyticsKey;
    if (dim === "assistant") key = { value: first ?? null, label: String(row.agent_name ?? "") };
    else if (dim === "version")
      key = {
        value: first && second ? `${first}:${second}` : null,
        label: second ? `${String(row.agent_name ?? "")} v${second}` : String(row.agent_name ?? ""),
      };
    else if (dim === "campaign" && first) {
      if (!campaigns.has(first))
        campaigns.set(
          first,
          campaignName(db, tenant, first).then((name) => name ?? ""),
        );
      key = { value: first, label: await (campaigns.get(first) as Promise<string>) };
    } else key = { value: first ?? null, label: first ?? "" };
    keys[dim] = key;
  }
  return keys;
}

const emptyRow = (metrics: AnalyticsQueryParsed["metrics"], bucket: string): AnalyticsRow => ({
  bucket,
  keys: {},
  values: metricValues(sumsOf({}), metrics),
});

/**
 * Answers GET /analytics/query from the daily rollup: per bucket of the workspace's days (and per
 * group), then the whole range. A range's days are the workspace's zone; a bucket without calls is a row of
 * zeros when nothing is grouped, so a chart's days line up.
 */
export async function queryAnalytics(
  db: Executor,
  tenant: TenantScope,
  q: AnalyticsQueryParsed,
  zone: string,
  campaignName: CampaignName,
): Promise<AnalyticsResult> {
  const [grouped, [totalRow]] = await Promise.all([
    runQuery(db, tenant, q, true),
    runQuery(db, tenant, { ...q, bucket: "total", group_by: [] }, false),
  ]);
  const campaigns = new Map<string, Promise<string>>();
  let rows: AnalyticsRow[] = await Promise.all(
    grouped.map(async (row) => ({
      bucket: text(row.bucket),
      keys: await keysOf(db, tenant, q.group_by, row, campaigns, campaignName),
      values: metricValues(sumsOf(row), q.metrics),
    })),
  );
  if (q.group_by.length === 0 && q.bucket !== "total") {
    const byBucket = new Map(rows.map((row) => [row.bucket, row]));
    rows = bucketsBetween(q.from, q.to, q.bucket).map((b) => byBucket.get(b) ?? emptyRow(q.metrics, b));
  } else {
    const first = q.metrics[0];
    rows.sort(
      (a, b) =>
        (a.bucket ?? "").localeCompare(b.bucket ?? "") || (first ? (b.values[first] ?? 0) - (a.values[first] ?? 0) : 0),
    );
  }
  return {
    from: q.from,
    to: q.to,
    bucket: q.bucket,
    time_zone: zone,
    metrics: q.metrics,
    group_by: q.group_by,
    rows,
    totals: metricValues(sumsOf(totalRow ?? {}), q.metrics),
    currency: "USD",
  };
}
