import type { CallChannel, UsageComponent, UsageUnit } from "@parley/contract";
import { date, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../../lib/table-columns.ts";
import { workspaceIdColumn } from "../workspaces/owned-columns.ts";
import { workspaces } from "../workspaces/schema.ts";

/**
 * One row per call per component, written once the call has ended, shaped for sums: by workspace and
 * day (the chart, the month), by assistant, by provider. Rows are kept when a call log or an assistant
 * is deleted (a statement must not change after the fact), so neither is a foreign key.
 */
export const usageRecords = pgTable(
  "usage_records",
  {
    callId: uuid("call_id").notNull(),
    component: text("component").$type<UsageComponent>().notNull(),
    workspaceId: workspaceIdColumn(),
    agentId: uuid("agent_id"),
    agentName: text("agent_name").notNull(),
    channel: text("channel").$type<CallChannel>().notNull(),
    /** The UTC day the call started. */
    day: date("day", { mode: "string" }).notNull(),
    /** The call's minutes, repeated on each of its rows (sum over one component to count minutes). */
    callMinutes: doublePrecision("call_minutes").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    unit: text("unit").$type<UsageUnit>().notNull(),
    quantity: doublePrecision("quantity").notNull(),
    /** USD per unit. */
    unitPrice: doublePrecision("unit_price").notNull(),
    cost: doublePrecision("cost").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Metering a call twice (a retried job) writes nothing new.
    primaryKey({ columns: [t.callId, t.component] }),
    index("usage_records_workspace_day_idx").on(t.workspaceId, t.day),
  ],
);

export type UsageRecordRow = typeof usageRecords.$inferSelect;

/**
 * Minutes set aside for a running call from its plan's monthly allowance: its max duration, capped
 * to what was left when it started. Counted (with the minutes of ended calls) by every process, so
 * two calls in parallel — on one process or two — never get the same minutes. Freed when the call
 * ends; a grant whose process died counts until `expires_at`.
 */
export const minuteGrants = pgTable(
  "minute_grants",
  {
    callId: uuid("call_id").primaryKey(),
    ownerId: uuid("owner_id").notNull(),
    workspaceId: workspaceIdColumn(),
    seconds: integer("seconds").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("minute_grants_owner_idx").on(t.ownerId, t.expiresAt)],
);

/** A workspace's customer at the payment provider, when payments are configured. */
export const billingAccounts = pgTable("billing_accounts", {
  workspaceId: uuid("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  customerId: text("customer_id").notNull(),
  createdAt: createdAt(),
});
