import {
  ALERT_MAX_RULES,
  type AlertEvent,
  type AlertRule,
  type AlertRuleInput,
  AlertRuleInput as AlertRuleSchema,
} from "@parley/contract";
import { count, desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type AlertEventRow, type AlertRuleRow, alertEvents, alertRules } from "./schema.ts";

const RULE_NOT_FOUND = "Alert rule not found.";
const HISTORY_LENGTH = 200;

export function toAlertRule(row: AlertRuleRow): AlertRule {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    threshold: row.threshold,
    window_calls: row.windowCalls,
    window_hours: row.windowHours,
    component: row.component,
    assistant_id: row.agentId,
    emails: row.emails,
    enabled: row.enabled,
    firing: row.firing,
    last_value: row.lastValue,
    last_evaluated_at: row.lastEvaluatedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toAlertEvent(row: AlertEventRow): AlertEvent {
  return {
    id: row.id,
    rule_id: row.ruleId,
    rule_name: row.ruleName,
    kind: row.kind,
    state: row.state,
    value: row.value,
    threshold: row.threshold,
    message: row.message,
    emailed: row.emailed,
    created_at: row.createdAt.toISOString(),
  };
}

function columnsOf(input: AlertRuleInput) {
  const rule = AlertRuleSchema.parse(input);
  return {
    name: rule.name,
    kind: rule.kind,
    threshold: rule.threshold,
    windowCalls: rule.window_calls,
    windowHours: rule.window_hours,
    component: rule.component,
    agentId: rule.assistant_id,
    emails: rule.emails,
    enabled: rule.enabled,
  };
}

export async function listAlertRules(db: Executor, tenant: TenantScope): Promise<AlertRule[]> {
  const rows = await db
    .select()
    .from(alertRules)
    .where(scoped(alertRules, tenant).where())
    .orderBy(alertRules.createdAt);
  return rows.map(toAlertRule);
}

export async function createAlertRule(db: Executor, tenant: TenantScope, input: AlertRuleInput): Promise<AlertRule> {
  const [existing] = await db.select({ n: count() }).from(alertRules).where(scoped(alertRules, tenant).where());
  if (Number(existing?.n ?? 0) >= ALERT_MAX_RULES)
    throw new AppError("conflict", `A workspace has at most ${ALERT_MAX_RULES} alert rules.`);
  const [row] = await db
    .insert(alertRules)
    .values(scoped(alertRules, tenant).values(columnsOf(input)))
    .returning();
  return toAlertRule(found(row, RULE_NOT_FOUND));
}

/** A changed rule starts over: it is judged afresh, and fires at the next breach. */
export async function updateAlertRule(
  db: Executor,
  tenant: TenantScope,
  id: string,
  input: AlertRuleInput,
): Promise<AlertRule> {
  const [row] = await db
    .update(alertRules)
    .set({ ...columnsOf(input), firing: false, lastValue: null, lastEvaluatedAt: null, updatedAt: new Date() })
    .where(scoped(alertRules, tenant).where(eq(alertRules.id, id)))
    .returning();
  return toAlertRule(found(row, RULE_NOT_FOUND));
}

export async function deleteAlertRule(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const rows = await db
    .delete(alertRules)
    .where(scoped(alertRules, tenant).where(eq(alertRules.id, id)))
    .returning({ id: alertRules.id });
  found(rows[0], RULE_NOT_FOUND);
}

/** The latest alerts fired and recovered, newest first. */
export async function listAlertEvents(db: Executor, tenant: TenantScope): Promise<AlertEvent[]> {
  const rows = await db
    .select()
    .from(alertEvents)
    .where(scoped(alertEvents, tenant).where())
    .orderBy(desc(alertEvents.createdAt))
    .limit(HISTORY_LENGTH);
  return rows.map(toAlertEvent);
}
