import type { ComponentUsage, PeriodTotal, UsageComponent, UsageUnit } from "@parley/contract";
import { and, asc, desc, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CountedGroup, type CountWindow, countedBy, countedTotals } from "./counted-calls-across-workspaces.ts";
import { usageRecords } from "./schema.ts";

/**
 * Sums over one workspace's month. Calls and minutes are the counted calls (counted-calls.ts: the same
 * figures as Home and the plan); money is the meter's usage rows.
 */

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const num = (value: unknown) => round(Number(value ?? 0));
const cost = sql<string>`coalesce(sum(${usageRecords.cost}), 0)`;
const quantity = sql<string>`sum(${usageRecords.quantity})`;
/** An assistant as a key: its id, or "" for rows of an assistant deleted before metering. */
const agentKey = sql<string>`coalesce(${usageRecords.agentId}::text, '')`;
/** What a line of usage is counted and priced by. */
const lineOf = {
  component: usageRecords.component,
  provider: usageRecords.provider,
  model: usageRecords.model,
  unit: usageRecords.unit,
};
/** The first month anything can have been metered: the lower bound of "every month". */
const EVER = "2000-01-01";

/** A calendar month in UTC: its first day and the first day of the next, as dates. */
export function periodBounds(period: string): { start: string; end: string } {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const next = new Date(Date.UTC(year, month, 1));
  return { start: `${period}-01`, end: next.toISOString().slice(0, 10) };
}

export const periodOf = (now: Date) => now.toISOString().slice(0, 7);

function inPeriod(tenant: TenantScope, period: string) {
  const { start, end } = periodBounds(period);
  return scoped(usageRecords, tenant).where(gte(usageRecords.day, start), lt(usageRecords.day, end));
}

const windowOf = (tenant: TenantScope, period: string): CountWindow => {
  const { start, end } = periodBounds(period);
  return { workspaceIds: [tenant.workspaceId], from: start, to: end };
};

/** Cost per key, from the meter's rows of the workspace in the period (every period without one). */
async function costBy(db: Executor, tenant: TenantScope, period: string | null, key: SQL<string>) {
  const rows = await db
    .select({ key, cost })
    .from(usageRecords)
    .where(period ? inPeriod(tenant, period) : scoped(usageRecords, tenant).where())
    .groupBy(key);
  return new Map(rows.map((r) => [r.key, num(r.cost)]));
}

/** Counted groups and costs by the same key, side by side: a key with either shows. */
function merged(counted: CountedGroup[], costs: Map<string, number>) {
  const byKey = new Map(counted.map((g) => [g.key, { ...g, cost: costs.get(g.key) ?? 0 }]));
  for (const [key, amount] of costs) {
    if (!byKey.has(key)) byKey.set(key, { key, name: "", calls: 0, minutes: 0, cost: amount });
  }
  return [...byKey.values()];
}

export async function periodTotals(db: Executor, tenant: TenantScope, period: string) {
  const [counted, [row]] = await Promise.all([
    countedTotals(db, windowOf(tenant, period)),
    db.select({ cost }).from(usageRecords).where(inPeriod(tenant, period)),
  ]);
  return { minutes: counted.minutes, calls: counted.calls, cost: num(row?.cost) };
}

export async function dailyUsage(db: Executor, tenant: TenantScope, period: string) {
  const [counted, costs] = await Promise.all([
    countedBy(db, windowOf(tenant, period), "day"),
    costBy(db, tenant, period, sql<string>`${usageRecords.day}::text`),
  ]);
  return merged(counted, costs)
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((d) => ({ day: d.key, minutes: d.minutes, calls: d.calls, cost: d.cost }));
}

export async function componentUsage(db: Executor, tenant: TenantScope, period: string): Promise<ComponentUsage[]> {
  const rows = await db
    .select({ ...lineOf, quantity, cost })
    .from(usageRecords)
    .where(inPeriod(tenant, period))
    .groupBy(usageRecords.component, usageRecords.provider, usageRecords.model, usageRecords.unit)
    .orderBy(desc(cost), asc(usageRecords.component));
  return rows.map((r) => ({
    component: r.component as UsageComponent,
    provider: r.provider,
    model: r.model,
    unit: r.unit as UsageUnit,
    quantity: num(r.quantity),
    cost: num(r.cost),
  }));
}

export async function assistantUsage(db: Executor, tenant: TenantScope, period: string) {
  const [counted, costs, names] = await Promise.all([
    countedBy(db, windowOf(tenant, period), "assistant"),
    costBy(db, tenant, period, agentKey),
    // A renamed assistant's calls stay together under its latest name.
    db
      .select({ key: agentKey, name: sql<string>`max(${usageRecords.agentName})` })
      .from(usageRecords)
      .where(inPeriod(tenant, period))
      .groupBy(agentKey),
  ]);
  const nameOf = new Map(names.map((n) => [n.key, n.name]));
  return merged(counted, costs)
    .sort((a, b) => b.cost - a.cost || b.minutes - a.minutes)
    .map((a) => ({
      agent_id: a.key === "" ? null : a.key,
      agent_name: a.name || nameOf.get(a.key) || "",
      calls: a.calls,
      minutes: a.minutes,
      cost: a.cost,
    }));
}

/** Every month with usage, newest first. */
export async function periodHistory(db: Executor, tenant: TenantScope): Promise<PeriodTotal[]> {
  const [counted, costs] = await Promise.all([
    countedBy(db, { workspaceIds: [tenant.workspaceId], from: EVER }, "month"),
    costBy(db, tenant, null, sql<string>`to_char(${usageRecords.day}, 'YYYY-MM')`),
  ]);
  return merged(counted, costs)
    .sort((a, b) => b.key.localeCompare(a.key))
    .map((p) => ({ period: p.key, calls: p.calls, minutes: p.minutes, cost: p.cost }));
}

/** The period's statement lines: per component, provider and model, with the price per unit. */
export async function statementLines(db: Executor, tenant: TenantScope, period: string) {
  const rows = await db
    .select({ ...lineOf, unitPrice: usageRecords.unitPrice, quantity, cost })
    .from(usageRecords)
    .where(and(inPeriod(tenant, period)))
    .groupBy(
      usageRecords.component,
      usageRecords.provider,
      usageRecords.model,
      usageRecords.unit,
      usageRecords.unitPrice,
    )
    .orderBy(asc(usageRecords.component), asc(usageRecords.provider), asc(usageRecords.model));
  return rows.map((r) => ({
    component: r.component as UsageComponent,
    provider: r.provider,
    model: r.model,
    unit: r.unit as UsageUnit,
    unit_price: r.unitPrice,
    quantity: num(r.quantity),
    cost: num(r.cost),
  }));
}
