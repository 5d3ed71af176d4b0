import type { ComponentUsage, PeriodTotal, UsageComponent, UsageUnit } from "@parley/contract";
import { and, asc, desc, gte, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { usageRecords } from "./schema.ts";

/**
 * Sums over the usage rows of one workspace. A call has exactly one transcriber (stt) row, so its
 * minutes and the number of calls are counted on those rows.
 */

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const num = (value: unknown) => round(Number(value ?? 0));
const onCallRow = sql`${usageRecords.component} = 'stt'`;
const callMinutes = sql<string>`coalesce(sum(${usageRecords.callMinutes}) filter (where ${onCallRow}), 0)`;
const calls = sql<string>`count(*) filter (where ${onCallRow})`;
const cost = sql<string>`coalesce(sum(${usageRecords.cost}), 0)`;
const quantity = sql<string>`sum(${usageRecords.quantity})`;
/** What a line of usage is counted and priced by. */
const lineOf = {
  component: usageRecords.component,
  provider: usageRecords.provider,
  model: usageRecords.model,
  unit: usageRecords.unit,
};

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

export async function periodTotals(db: Executor, tenant: TenantScope, period: string) {
  const [row] = await db
    .select({ minutes: callMinutes, calls, cost })
    .from(usageRecords)
    .where(inPeriod(tenant, period));
  return { minutes: num(row?.minutes), calls: num(row?.calls), cost: num(row?.cost) };
}

export async function dailyUsage(db: Executor, tenant: TenantScope, period: string) {
  const rows = await db
    .select({ day: usageRecords.day, minutes: callMinutes, calls, cost })
    .from(usageRecords)
    .where(inPeriod(tenant, period))
    .groupBy(usageRecords.day)
    .orderBy(asc(usageRecords.day));
  return rows.map((r) => ({ day: r.day, minutes: num(r.minutes), calls: num(r.calls), cost: num(r.cost) }));
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
  const rows = await db
    .select({
      agentId: usageRecords.agentId,
      // A renamed assistant's calls stay together under its latest name.
      agentName: sql<string>`max(${usageRecords.agentName})`,
      minutes: callMinutes,
      calls,
      cost,
    })
    .from(usageRecords)
    .where(inPeriod(tenant, period))
    .groupBy(usageRecords.agentId)
    .orderBy(desc(cost));
  return rows.map((r) => ({
    agent_id: r.agentId,
    agent_name: r.agentName,
    calls: num(r.calls),
    minutes: num(r.minutes),
    cost: num(r.cost),
  }));
}

/** Every month with usage, newest first. */
export async function periodHistory(db: Executor, tenant: TenantScope): Promise<PeriodTotal[]> {
  const month = sql<string>`to_char(${usageRecords.day}, 'YYYY-MM')`;
  const rows = await db
    .select({ period: month, minutes: callMinutes, calls, cost })
    .from(usageRecords)
    .where(scoped(usageRecords, tenant).where())
    .groupBy(month)
    .orderBy(desc(month));
  return rows.map((r) => ({ period: r.period, calls: num(r.calls), minutes: num(r.minutes), cost: num(r.cost) }));
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
