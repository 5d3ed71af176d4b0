import type { AlertKind, CallChannel, LatencyComponent } from "@parley/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, timestamps } from "../../lib/table-columns.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * What one rollup row is keyed by: a UTC hour (regrouped into the workspace's days at query time,
 * exact for zones a whole number of hours from UTC) and the call's dimensions. A null dimension is
 * "none" (a web call has no phone number); the unique key treats nulls as equal.
 */
const dimensions = () => ({
  workspaceId: workspaceIdColumn(),
  agentId: uuid("agent_id"),
  agentVersion: integer("agent_version"),
  phoneNumber: text("phone_number"),
  batchCallId: uuid("batch_call_id"),
  channel: text("channel").$type<CallChannel>().notNull(),
  endReason: text("end_reason").notNull().default(""),
  /** The squad member that ended the call (its last segment's, issue 31); null for a call of one assistant. */
  squadMember: text("squad_member"),
});

/** Costs per component in USD, summed. */
const costs = () => ({
  cost: doublePrecision("cost").notNull().default(0),
  costLlm: doublePrecision("cost_llm").notNull().default(0),
  costStt: doublePrecision("cost_stt").notNull().default(0),
  costTts: doublePrecision("cost_tts").notNull().default(0),
  costTelephony: doublePrecision("cost_telephony").notNull().default(0),
  costPlatform: doublePrecision("cost_platform").notNull().default(0),
});

/** What a rollup row sums (the same for hours and days). */
const measures = () => ({
  agentName: text("agent_name").notNull().default(""),
  attempts: integer("attempts").notNull().default(0),
  answered: integer("answered").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  errorCalls: integer("error_calls").notNull().default(0),
  transfers: integer("transfers").notNull().default(0),
  analysed: integer("analysed").notNull().default(0),
  passed: integer("passed").notNull().default(0),
  durationSeconds: doublePrecision("duration_seconds").notNull().default(0),
  durationHist: integer("duration_hist").array().notNull(),
  ...costs(),
  latEotHist: integer("lat_eot_hist").array().notNull(),
  latSttHist: integer("lat_stt_hist").array().notNull(),
  latLlmHist: integer("lat_llm_hist").array().notNull(),
  latTtsHist: integer("lat_tts_hist").array().notNull(),
  latV2vHist: integer("lat_v2v_hist").array().notNull(),
  latEotSum: doublePrecision("lat_eot_sum").notNull().default(0),
  latSttSum: doublePrecision("lat_stt_sum").notNull().default(0),
  latLlmSum: doublePrecision("lat_llm_sum").notNull().default(0),
  latTtsSum: doublePrecision("lat_tts_sum").notNull().default(0),
  latV2vSum: doublePrecision("lat_v2v_sum").notNull().default(0),
});

/**
 * Calls summed per workspace × UTC hour × assistant × version × phone number × campaign × channel ×
 * end reason (× squad member), kept as calls end (rollup-writer.ts) and when their analysis lands.
 * Quantiles come from histogram buckets (histograms.ts) summed over rows. Rows outlive the call
 * logs they were made from, as the meter's rows do. The source of the daily rows, and what alerts
 * over the last hours read.
 */
export const analyticsRollups = pgTable(
  "analytics_rollups",
  { ...dimensions(), hour: timestamp("hour", { withTimezone: true }).notNull(), ...measures() },
  (t) => [
    unique("analytics_rollups_key")
      .on(
        t.workspaceId,
        t.hour,
        t.agentId,
        t.agentVersion,
        t.phoneNumber,
        t.batchCallId,
        t.channel,
        t.endReason,
        t.squadMember,
      )
      .nullsNotDistinct(),
  ],
);

/**
 * The same sums per day of the workspace's time zone (the day its UTC hour falls on there), what
 * queries read: a day has ≈10× fewer rows than its hours. Kept beside the hourly rows as calls end,
 * and rebuilt from them when the workspace's zone changes (settings.ts).
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  { ...dimensions(), day: date("day", { mode: "string" }).notNull(), ...measures() },
  (t) => [
    unique("analytics_daily_key")
      .on(
        t.workspaceId,
        t.day,
        t.agentId,
        t.agentVersion,
        t.phoneNumber,
        t.batchCallId,
        t.channel,
        t.endReason,
        t.squadMember,
      )
      .nullsNotDistinct(),
  ],
);

/**
 * The workspace's whole day (no dimensions), in its zone: what an unfiltered, ungrouped query reads —
 * the page as it opens — one row a day however many assistants, numbers and channels there are.
 */
export const analyticsDailyTotals = pgTable(
  "analytics_daily_totals",
  { workspaceId: workspaceIdColumn(), day: date("day", { mode: "string" }).notNull(), ...measures() },
  (t) => [unique("analytics_daily_totals_key").on(t.workspaceId, t.day)],
);

/**
 * The calls already in the rollup, one row each: a call ending twice (a retried follow-up) adds
 * nothing, its analysis verdict and final cost are applied as a change against what was added, and
 * alerts judge "the last N calls" from here.
 */
export const analyticsCalls = pgTable(
  "analytics_calls",
  {
    callId: uuid("call_id").primaryKey(),
    ...dimensions(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull(),
    answered: boolean("answered").notNull(),
    errorEnd: boolean("error_end").notNull(),
    passed: boolean("passed"),
    ...costs(),
  },
  (t) => [index("analytics_calls_recent_idx").on(t.workspaceId, t.endedAt.desc())],
);

/** A workspace's analytics settings: the time zone its days, weeks and months are read in. */
export const analyticsSettings = pgTable("analytics_settings", {
  workspaceId: workspaceIdColumn().primaryKey(),
  timeZone: text("time_zone").notNull().default("UTC"),
  ...timestamps(),
});

/** A workspace's alert rules and whether each is in breach now (it fires once per breach). */
export const alertRules = pgTable(
  "alert_rules",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    kind: text("kind").$type<AlertKind>().notNull(),
    threshold: doublePrecision("threshold").notNull(),
    windowCalls: integer("window_calls").notNull(),
    windowHours: integer("window_hours").notNull(),
    component: text("component").$type<LatencyComponent>().notNull(),
    agentId: uuid("agent_id"),
    emails: jsonb("emails").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    enabled: boolean("enabled").notNull().default(true),
    firing: boolean("firing").notNull().default(false),
    lastValue: doublePrecision("last_value"),
    lastEvaluatedAt: timestamp("last_evaluated_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("alert_rules_workspace_idx").on(t.workspaceId)],
);

/** What the rules did: each breach that fired and each recovery. */
export const alertEvents = pgTable(
  "alert_events",
  {
    ...workspaceRecordKey(),
    ruleId: uuid("rule_id").references(() => alertRules.id, { onDelete: "set null" }),
    ruleName: text("rule_name").notNull(),
    kind: text("kind").$type<AlertKind>().notNull(),
    state: text("state").$type<"triggered" | "recovered">().notNull(),
    value: doublePrecision("value").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    message: text("message").notNull(),
    emailed: integer("emailed").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("alert_events_workspace_idx").on(t.workspaceId, t.createdAt.desc())],
);

export type AlertRuleRow = typeof alertRules.$inferSelect;
export type AlertEventRow = typeof alertEvents.$inferSelect;
export type RollupRow = typeof analyticsRollups.$inferSelect;

/** Ended calls from before analytics, queued by migration 0038 for the backfill job to roll up. */
export const analyticsBackfill = pgTable("analytics_backfill", {
  callId: uuid("call_id").primaryKey(),
  workspaceId: workspaceIdColumn(),
});
