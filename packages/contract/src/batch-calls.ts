import { z } from "zod";
import { paged } from "./common.ts";
import { BATCH_CALLS_PAGE_SIZE } from "./constants.ts";
import { pageQuery } from "./page-query.ts";

/**
 * Batch outbound call campaigns (spec §2, §3 "Batch call", §4 statuses, §5, §7 "Batch calls", §9)
 * and the workspace's do-not-call list. Which action is allowed in which status is in
 * docs/batch-calls.md and in BATCH_CALL_ACTIONS below (the web disables buttons from it).
 */

// ── enums ───────────────────────────────────────────────────────────────────

export const BATCH_CALL_STATUSES = [
  "created",
  "scheduled",
  "pending",
  "running",
  "completed",
  "failed",
  "partial",
  "cancelled",
] as const;
export const BatchCallStatus = z.enum(BATCH_CALL_STATUSES);
export type BatchCallStatus = z.infer<typeof BatchCallStatus>;

/** Statuses a campaign ends in; archive is allowed only there. */
export const FINISHED_BATCH_STATUSES = [
  "completed",
  "failed",
  "partial",
  "cancelled",
] as const satisfies readonly BatchCallStatus[];

export type BatchCallAction = "edit" | "delete" | "initiate" | "stop" | "archive" | "add_numbers";

/** In which statuses each action is allowed (the server answers 409 with BATCH_CALL_TEXTS.notAllowed otherwise). */
export const BATCH_CALL_ACTIONS: Record<BatchCallAction, readonly BatchCallStatus[]> = {
  edit: ["created", "scheduled"],
  add_numbers: ["created", "scheduled"],
  delete: ["created", "scheduled", "completed", "failed", "partial", "cancelled"],
  initiate: ["created", "scheduled", "pending"],
  stop: ["scheduled", "pending", "running"],
  archive: ["completed", "failed", "partial", "cancelled"],
};

export function batchActionAllowed(action: BatchCallAction, status: BatchCallStatus): boolean {
  return BATCH_CALL_ACTIONS[action].includes(status);
}

/** Call outcomes a retry policy may retry. */
export const RETRYABLE_OUTCOMES = ["no-answer", "busy", "failed", "voicemail"] as const;
export const RetryableOutcome = z.enum(RETRYABLE_OUTCOMES);
export type RetryableOutcome = z.infer<typeof RetryableOutcome>;

/** What one call to a contact came to. */
export const CallAttemptOutcome = z.enum(["answered", ...RETRYABLE_OUTCOMES]);
export type CallAttemptOutcome = z.infer<typeof CallAttemptOutcome>;

/**
 * A contact's state: `pending` waits for its next attempt (retries included), `dialing` has a call
 * placed or live; the rest are final — an outcome of its last attempt, `do-not-call` (on the
 * workspace's list: never dialled), `cancelled` (the campaign stopped before it was dialled).
 */
export const BatchContactStatus = z.enum([
  "pending",
  "dialing",
  ...CallAttemptOutcome.options,
  "do-not-call",
  "cancelled",
]);
export type BatchContactStatus = z.infer<typeof BatchContactStatus>;

/** Why a campaign waits without dialling while pending. */
export const BatchPauseReason = z.enum(["spend_cap"]);
export type BatchPauseReason = z.infer<typeof BatchPauseReason>;

// ── limits and texts ────────────────────────────────────────────────────────

export const BATCH_CALL_MAX_CONTACTS = 50_000;
export const BATCH_CALL_MAX_CONCURRENCY = 1_000;
export const BATCH_CALL_DEFAULT_CONCURRENCY = 5;
export const BATCH_CALLS_MAX_PAGE_SIZE = 100;
export const BATCH_CSV_MAX_BYTES = 10 * 1024 * 1024;
export const DO_NOT_CALL_PAGE_SIZE = 50;
/** Contacts a page of GET /batch-calls/{id}/contacts holds by default; the campaign's read holds the first such page. */
export const BATCH_CONTACTS_PAGE_SIZE = 25;
export const BATCH_CONTACTS_MAX_PAGE_SIZE = 500;

const count = (n: number) => n.toLocaleString("en-US");

export const BATCH_CALL_TEXTS = {
  notFound: "Batch call not found.",
  notAllowed: (action: BatchCallAction, status: BatchCallStatus) =>
    `This batch call cannot be ${ACTION_PAST[action]} while it is ${status}.`,
  noNumbers: "Add at least one phone number before starting the batch call.",
  tooManyNumbers: `A batch call can have at most ${count(BATCH_CALL_MAX_CONTACTS)} phone numbers.`,
  /** The cap holds per campaign: what it has, the room left, what the refused request would add. */
  campaignFull: (has: number, adding: number) => {
    const room = Math.max(0, BATCH_CALL_MAX_CONTACTS - has);
    return `A batch call can have at most ${count(BATCH_CALL_MAX_CONTACTS)} phone numbers. This one has ${count(has)}, so ${room === 0 ? "no more" : `${count(room)} more`} can be added (this request adds ${count(adding)}).`;
  },
  invalidNumber: (value: string) => `Invalid phone number: ${value}`,
  duplicateNumber: (number: string, line: number) => `Duplicate of line ${line}: ${number}`,
  onDoNotCall: "On the do-not-call list",
  fromNumberNotFound: "The from phone number was not found in this workspace.",
  agentNotFound: "The assistant was not found in this workspace.",
  noAssistant: "Choose an assistant, or give the from phone number an outbound assistant.",
  windowEmpty: "The calling window needs at least one day and an end time after its start time.",
  invalidTimezone: (tz: string) => `Unknown time zone: ${tz}`,
  csvMissing: "Send the CSV file as multipart/form-data in a field named file.",
  csvEmpty: "The CSV file has no rows.",
  csvMalformed: (line: number, reason: string) =>
    `The CSV file is malformed at line ${line}: ${reason}. Nothing was imported.`,
  csvNoPhoneColumn:
    "No phone number column found. Name a column phone, phone_number or number, or put the numbers in the first column.",
  csvTooLarge: "The CSV file is larger than 10 MB.",
  created: "Batch call created",
  updated: "Batch call updated",
  deleted: "Batch call deleted",
  initiated: "Batch call initiated",
  stopped: "Batch call stopped",
  archived: "Batch call archived",
} as const;

const ACTION_PAST: Record<BatchCallAction, string> = {
  edit: "edited",
  delete: "deleted",
  initiate: "initiated",
  stop: "stopped",
  archive: "archived",
  add_numbers: "changed",
};

// ── fields ──────────────────────────────────────────────────────────────────

/** IANA time zone name (checked by the server with Intl). */
const TimeZone = z.string().trim().min(1).max(64);
const Variables = z.record(z.string().trim().min(1).max(64), z.string().max(1000));
/** ISO 3166-1 alpha-2 used for numbers written without "+". */
const Country = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, "Choose a country")
  .transform((s) => s.toUpperCase());

/** One contact as given: a number, or a number with variables for the prompt ({{first_name}}) and a time zone. */
export const BatchContactInput = z.union([
  z.string().trim().min(1).max(40),
  z.object({
    number: z.string().trim().min(1).max(40),
    variables: Variables.optional(),
    timezone: TimeZone.nullable().optional(),
  }),
]);
export type BatchContactInput = z.infer<typeof BatchContactInput>;

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Use HH:MM");

/**
 * When contacts may be called: ISO weekdays (1 = Monday … 7 = Sunday) and hours [start, end) in the
 * recipient's time zone (the contact's own, else its number's country) or the campaign's.
 */
export const CallingWindow = z.object({
  days: z.array(z.number().int().min(1).max(7)).min(1).max(7),
  start: HHMM,
  end: HHMM,
  timezone: z.enum(["recipient", "campaign"]).default("recipient"),
});
export type CallingWindow = z.infer<typeof CallingWindow>;

export const RetryPolicy = z.object({
  /** Calls per contact in all, the first included (1 = no retries). */
  max_attempts: z.number().int().min(1).max(10).default(1),
  /** Wait after a failed attempt before the next. */
  delay_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(300),
  retry_on: z.array(RetryableOutcome).default(["no-answer", "busy"]),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

/** Spec §5: an empty scheduled time is sent as null. */
const ScheduledTime = z.preprocess((v) => (v === "" ? null : v), z.iso.datetime({ offset: true }).nullable());

const BatchCallFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  /** The assistant that speaks; null: the from number's outbound assistant. */
  agent_id: z.uuid().nullable(),
  /** A squad instead (issue 31): each call starts at its first member; takes precedence over agent_id. */
  squad_id: z.uuid().nullable().optional(),
  from_phone_number_id: z.uuid(),
  phone_numbers: z.array(BatchContactInput).max(BATCH_CALL_MAX_CONTACTS),
  scheduled_time: ScheduledTime,
  /** The campaign's time zone (its calling window with timezone "campaign", and the web's schedule picker). */
  timezone: TimeZone,
  calling_window: CallingWindow.nullable(),
  retry_policy: RetryPolicy,
  /** Calls at once; the workspace's concurrency_limit caps it at dial time. */
  concurrency: z.number().int().min(1).max(BATCH_CALL_MAX_CONCURRENCY),
  /** USD; reaching it pauses the campaign (status pending, pause_reason spend_cap). */
  spend_cap: z.number().positive().nullable(),
  /** Country for numbers written without "+" (ISO alpha-2). */
  default_country: Country.nullable(),
});

export const CreateBatchCallBody = BatchCallFields.extend({
  agent_id: BatchCallFields.shape.agent_id.default(null),
  phone_numbers: BatchCallFields.shape.phone_numbers.default([]),
  scheduled_time: BatchCallFields.shape.scheduled_time.default(null),
  timezone: TimeZone.default("UTC"),
  calling_window: BatchCallFields.shape.calling_window.default(null),
  retry_policy: RetryPolicy.default({ max_attempts: 1, delay_seconds: 300, retry_on: ["no-answer", "busy"] }),
  concurrency: BatchCallFields.shape.concurrency.default(BATCH_CALL_DEFAULT_CONCURRENCY),
  spend_cap: BatchCallFields.shape.spend_cap.default(null),
  default_country: BatchCallFields.shape.default_country.default(null),
});
export type CreateBatchCallBody = z.infer<typeof CreateBatchCallBody>;

/** PUT /batch-calls/{id}: only the fields given change; phone_numbers replaces the whole list. */
export const UpdateBatchCallBody = BatchCallFields.partial();
export type UpdateBatchCallBody = z.infer<typeof UpdateBatchCallBody>;

// ── responses ───────────────────────────────────────────────────────────────

export const BatchContact = z.object({
  number: z.string(),
  variables: z.record(z.string(), z.string()),
  timezone: z.string().nullable(),
  status: BatchContactStatus,
  attempts: z.number().int(),
  last_outcome: CallAttemptOutcome.nullable(),
  /** The newest call placed to this contact (its call log). */
  call_id: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  updated_at: z.string(),
});
export type BatchContact = z.infer<typeof BatchContact>;

/** Live progress: every contact counted once by its state. */
export const BatchProgress = z.object({
  total: z.number().int(),
  /** Contacts called at least once. */
  dialled: z.number().int(),
  answered: z.number().int(),
  /** Final busy, no-answer, failed or voicemail. */
  failed: z.number().int(),
  in_progress: z.number().int(),
  pending: z.number().int(),
  do_not_call: z.number().int(),
  cancelled: z.number().int(),
});
export type BatchProgress = z.infer<typeof BatchProgress>;

export const BatchCallSummary = z.object({
  id: z.string(),
  name: z.string(),
  agent_id: z.string().nullable(),
  squad_id: z.string().nullable().optional(),
  from_phone_number_id: z.string(),
  scheduled_time: z.string().nullable(),
  timezone: z.string(),
  calling_window: CallingWindow.nullable(),
  retry_policy: RetryPolicy,
  concurrency: z.number().int(),
  spend_cap: z.number().nullable(),
  /** USD spent on the campaign's calls so far. */
  spent: z.number(),
  default_country: z.string().nullable(),
  status: BatchCallStatus,
  pause_reason: BatchPauseReason.nullable(),
  is_archived: z.boolean(),
  progress: BatchProgress,
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BatchCallSummary = z.infer<typeof BatchCallSummary>;

/**
 * One campaign (GET /batch-calls/{id}, and what its writes answer): phone_numbers holds its first
 * BATCH_CONTACTS_PAGE_SIZE contacts in order, so a page polling a 50,000-contact campaign stays
 * small; progress.total counts them all and GET /batch-calls/{id}/contacts pages through them.
 */
export const BatchCall = BatchCallSummary.extend({ phone_numbers: z.array(BatchContact) });
export type BatchCall = z.infer<typeof BatchCall>;

/** GET /batch-calls/{id}/contacts: in the order they were given, optionally of one state. */
export const BatchContactsQuery = z.object({
  ...pageQuery(BATCH_CONTACTS_MAX_PAGE_SIZE, BATCH_CONTACTS_PAGE_SIZE),
  status: BatchContactStatus.optional(),
});
export type BatchContactsQuery = z.input<typeof BatchContactsQuery>;

export const BatchContactPage = paged(BatchContact);
export type BatchContactPage = z.infer<typeof BatchContactPage>;

export const BatchCallPage = paged(BatchCallSummary);
export type BatchCallPage = z.infer<typeof BatchCallPage>;

const BooleanQuery = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());

/** GET /batch-calls: one list at a time, archived or not (spec §4), 10 a page by updatedAt desc (§9). */
export const BatchCallsQuery = z.object({
  is_archived: BooleanQuery.default(false),
  ...pageQuery(BATCH_CALLS_MAX_PAGE_SIZE, BATCH_CALLS_PAGE_SIZE),
  /** In the name. */
  search: z.string().trim().max(200).optional(),
  status: BatchCallStatus.optional(),
  /** scheduled: has a scheduled_time; immediate: has none. */
  type: z.enum(["scheduled", "immediate"]).optional(),
  sort_by: z.enum(["updatedAt", "createdAt", "name", "scheduled_time", "status"]).default("updatedAt"),
  sort_order: z.enum(["asc", "desc"]).default("desc"),
});
export type BatchCallsQuery = z.input<typeof BatchCallsQuery>;

export const InitiateBatchCallQuery = z.object({ batch_call_id: z.uuid() });

export const ArchiveBatchCallBody = z.object({ is_archived: z.boolean().default(true) }).default({ is_archived: true });

export const AddNumbersBody = z.object({
  phone_numbers: z.array(BatchContactInput).min(1).max(BATCH_CALL_MAX_CONTACTS),
  default_country: Country.nullable().optional(),
});
export const RemoveNumbersBody = z.object({ phone_numbers: z.array(z.string().trim().min(1).max(40)).min(1) });

/** A row (1-based line of a CSV, or 1-based position in a list) that was not taken, and why. */
export const RowProblem = z.object({ line: z.number().int(), value: z.string(), reason: z.string() });
export type RowProblem = z.infer<typeof RowProblem>;

/** What add-numbers, remove-number and import-csv did. */
export const NumbersChangeResponse = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  duplicates: z.array(RowProblem),
  invalid: z.array(RowProblem),
  /** Numbers on the do-not-call list: kept in the campaign as do-not-call, never dialled. */
  do_not_call: z.array(z.string()),
  batch_call: BatchCallSummary,
});
export type NumbersChangeResponse = z.infer<typeof NumbersChangeResponse>;

/** How a CSV was read: its header (when found), which column holds the numbers, the variable columns. */
export const CsvLayout = z.object({
  has_header: z.boolean(),
  separator: z.enum([",", ";", "\t"]),
  phone_column: z.string(),
  variable_columns: z.array(z.string()),
  timezone_column: z.string().nullable(),
  total_rows: z.number().int(),
});
export type CsvLayout = z.infer<typeof CsvLayout>;

/**
 * POST /batch-calls/{id}/import-csv (multipart: file, optional default_country, optional
 * dry_run=true for a preview). Numbers are added to the campaign; with dry_run nothing is stored.
 */
export const CsvImportResponse = NumbersChangeResponse.omit({ batch_call: true }).extend({
  layout: CsvLayout,
  /** Up to 20 parsed contacts, for a preview. */
  preview: z.array(
    z.object({ line: z.number().int(), number: z.string(), variables: z.record(z.string(), z.string()) }),
  ),
  dry_run: z.boolean(),
  batch_call: BatchCallSummary.nullable(),
});
export type CsvImportResponse = z.infer<typeof CsvImportResponse>;

// ── do-not-call list ────────────────────────────────────────────────────────

export const DoNotCallEntry = z.object({
  id: z.string(),
  number: z.string(),
  reason: z.string(),
  created_at: z.string(),
});
export type DoNotCallEntry = z.infer<typeof DoNotCallEntry>;

export const DoNotCallQuery = z.object({
  ...pageQuery(1000, DO_NOT_CALL_PAGE_SIZE),
  search: z.string().trim().max(40).optional(),
});

export const DoNotCallPage = paged(DoNotCallEntry);
export type DoNotCallPage = z.infer<typeof DoNotCallPage>;

export const AddDoNotCallBody = z.object({
  phone_numbers: z.array(z.string().trim().min(1).max(40)).min(1).max(BATCH_CALL_MAX_CONTACTS),
  reason: z.string().trim().max(200).default(""),
  default_country: Country.nullable().optional(),
});
export const RemoveDoNotCallBody = z.object({ phone_numbers: z.array(z.string().trim().min(1).max(40)).min(1) });

export const DoNotCallChangeResponse = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  duplicates: z.array(RowProblem),
  invalid: z.array(RowProblem),
});
export type DoNotCallChangeResponse = z.infer<typeof DoNotCallChangeResponse>;
