import type {
  BatchCallStatus,
  BatchContactStatus,
  BatchPauseReason,
  CallAttemptOutcome,
  CallingWindow,
  RetryPolicy,
} from "@parley/contract";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, timestamps, updatedAt } from "../../lib/table-columns.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * A batch outbound call campaign (spec §3 "Batch call"). The assistant and the from-number are ids
 * without foreign keys: the dialer checks them when it dials, and a deleted number fails the
 * campaign's remaining contacts rather than deleting the campaign's history.
 */
export const batchCalls = pgTable(
  "batch_calls",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    agentId: uuid("agent_id"),
    /** Calls start at this squad's first member (issue 31); null: the assistant. */
    squadId: uuid("squad_id"),
    fromPhoneNumberId: uuid("from_phone_number_id").notNull(),
    scheduledTime: timestamp("scheduled_time", { withTimezone: true }),
    timezone: text("timezone").notNull().default("UTC"),
    callingWindow: jsonb("calling_window").$type<CallingWindow>(),
    retryPolicy: jsonb("retry_policy").$type<RetryPolicy>().notNull(),
    concurrency: integer("concurrency").notNull(),
    spendCap: doublePrecision("spend_cap"),
    /** USD of the campaign's finished calls, added as the dialer reads each outcome. */
    spent: doublePrecision("spent").notNull().default(0),
    defaultCountry: text("default_country"),
    status: text("status").$type<BatchCallStatus>().notNull().default("created"),
    pauseReason: text("pause_reason").$type<BatchPauseReason>(),
    isArchived: boolean("is_archived").notNull().default(false),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("batch_calls_list_idx").on(t.workspaceId, t.isArchived, t.updatedAt.desc())],
);

/**
 * One contact of a campaign and its dialling state. A dialer claims a contact by moving it from
 * pending to dialing in one statement under FOR UPDATE SKIP LOCKED, with its lease (`locked_by`,
 * `lease_until`) and the attempt number: a contact is placed at most once per attempt whichever
 * process claims it. `dial_started_at` lets a restarted dialer find the call log of a dial its
 * process died in.
 */
export const batchCallContacts = pgTable(
  "batch_call_contacts",
  {
    ...workspaceRecordKey(),
    batchCallId: uuid("batch_call_id")
      .notNull()
      .references(() => batchCalls.id, { onDelete: "cascade" }),
    /** Order of entry: contacts are dialled in it. */
    position: integer("position").notNull(),
    /** E.164. */
    number: text("number").notNull(),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    /** The contact's own IANA zone; null: from the number's country. */
    timezone: text("timezone"),
    status: text("status").$type<BatchContactStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastOutcome: text("last_outcome").$type<CallAttemptOutcome>(),
    callId: uuid("call_id"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    dialStartedAt: timestamp("dial_started_at", { withTimezone: true }),
    lockedBy: text("locked_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("batch_call_contacts_number_idx").on(t.batchCallId, t.number),
    index("batch_call_contacts_claim_idx").on(t.batchCallId, t.status, t.position),
    // Pages of a campaign's contacts in order (GET /batch-calls/{id}/contacts, the read's first page).
    index("batch_call_contacts_order_idx").on(t.batchCallId, t.position),
  ],
);

/** The workspace's do-not-call list: every campaign skips these numbers (E.164). */
export const doNotCall = pgTable(
  "do_not_call",
  {
    ...workspaceRecordKey(),
    number: text("number").notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("do_not_call_number_idx").on(t.workspaceId, t.number)],
);

export type BatchCallRow = typeof batchCalls.$inferSelect;
export type BatchContactRow = typeof batchCallContacts.$inferSelect;
export type DoNotCallRow = typeof doNotCall.$inferSelect;
