import { z } from "zod";
import { CallLog } from "./calls.ts";
import { paged } from "./common.ts";
import { pageQuery } from "./page-query.ts";

/**
 * Data governance (issue 34): the audit log of who did what, and each workspace's retention of what
 * its calls leave behind. docs/privacy.md lists what is stored where.
 */

/** Every action the audit log records; a new action is added here first. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "member.role_changed",
  "member.removed",
  "api_key.created",
  "api_key.revoked",
  "integration.changed",
  "integration.deleted",
  "retention.changed",
  "retention.purged",
  "data.exported",
  "data.erased",
  "admin.tier_assigned",
  "admin.tier_removed",
  "admin.user_deactivated",
  "admin.user_reactivated",
  "admin.user_deleted",
  "admin.tier_created",
  "admin.tier_updated",
  "admin.tier_deleted",
  "admin.quota_changed",
  "admin.quota_removed",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** Plain facts about an action (never a secret): what changed, counts, names. */
export const AuditDetails = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type AuditDetails = z.infer<typeof AuditDetails>;

export const AuditEvent = z.object({
  id: z.uuid(),
  /** Null for a superuser's action over the whole installation. */
  workspace_id: z.uuid().nullable(),
  action: AuditAction,
  /** The person who acted (null: the system itself, e.g. the retention job). */
  actor_user_id: z.uuid().nullable(),
  /** Their email address when they acted (an account's address may change later). */
  actor_email: z.string().nullable(),
  /** Set when an API key acted for its creator. */
  actor_api_key_id: z.uuid().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  ip: z.string().nullable(),
  details: AuditDetails,
  created_at: z.iso.datetime({ offset: true }),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditEventPage = paged(AuditEvent);
export type AuditEventPage = z.infer<typeof AuditEventPage>;

export const AuditEventQuery = z.object({
  ...pageQuery(200, 50),
  action: AuditAction.optional(),
  /** Entries at or after this time. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Entries before this time. */
  to: z.iso.datetime({ offset: true }).optional(),
  /** `csv`: every matching entry (up to 10 000) as a CSV file instead of a page. */
  format: z.enum(["json", "csv"]).default("json"),
});
export type AuditEventQuery = z.infer<typeof AuditEventQuery>;

/** The kinds of data retention applies to, each kept for its own number of days. */
export const RETENTION_KINDS = [
  "recordings",
  "transcripts",
  "tool_calls",
  "analysis",
  "webhook_bodies",
  "document_files",
] as const;
export const RetentionKind = z.enum(RETENTION_KINDS);
export type RetentionKind = z.infer<typeof RetentionKind>;

/** Days kept after the call (or delivery, or upload); null keeps it until it is deleted by hand. */
export const RetentionDays = z.number().int().min(1).max(3650).nullable();

/**
 * Masking personal data in what calls leave behind (docs/privacy.md): `transcripts` masks it in
 * transcripts, tool calls, analysis and webhooks and silences it in recordings; `transcripts_and_model`
 * also keeps it from the assistant's model, which reads placeholders such as [EMAIL_1].
 */
export const PII_REDACTION_MODES = ["off", "transcripts", "transcripts_and_model"] as const;
export const PiiRedactionMode = z.enum(PII_REDACTION_MODES);
export type PiiRedactionMode = z.infer<typeof PiiRedactionMode>;

export const PrivacySettings = z.object({
  retention: z.object({
    recordings: RetentionDays,
    transcripts: RetentionDays,
    tool_calls: RetentionDays,
    analysis: RetentionDays,
    webhook_bodies: RetentionDays,
    document_files: RetentionDays,
  }),
  /**
   * Keep only call metadata (time, duration, cost, end reason): a call stores no recording,
   * transcript, tool-call payloads or analysis, and the retention pass clears what older calls left.
   */
  zero_retention: z.boolean(),
  /** A request without it sets it off, as the settings are replaced as a whole. */
  pii_redaction: PiiRedactionMode.default("off"),
});
export type PrivacySettings = z.infer<typeof PrivacySettings>;
/** The settings as a request may send them (PII redaction may be left out). */
export type PrivacySettingsInput = z.input<typeof PrivacySettings>;

/** Whom to look for: a phone number (as stored, E.164) or an email address. */
export const SubjectQuery = z
  .object({
    phone: z.string().trim().min(3).max(32).optional(),
    email: z.string().trim().toLowerCase().max(254).pipe(z.email("Enter a valid email address")).optional(),
  })
  .refine((q) => (q.phone === undefined) !== (q.email === undefined), {
    message: "Give either phone or email.",
  });
export type SubjectQuery = z.infer<typeof SubjectQuery>;

/** Everything the workspace holds about one person: calls, campaign rows and do-not-call entries. */
export const SubjectRecords = z.object({
  calls: z.array(
    z.object({
      id: z.uuid(),
      started_at: z.string(),
      direction: z.string(),
      from_number: z.string().nullable(),
      to_number: z.string().nullable(),
      agent_name: z.string(),
      has_recording: z.boolean(),
    }),
  ),
  campaign_contacts: z.array(
    z.object({ id: z.uuid(), batch_call_id: z.uuid(), number: z.string(), status: z.string() }),
  ),
  do_not_call: z.array(z.object({ id: z.uuid(), number: z.string(), reason: z.string(), created_at: z.string() })),
});
export type SubjectRecords = z.infer<typeof SubjectRecords>;

/**
 * Erasing one person's records: whom (as the search asks) and `confirm: true`, so that no request
 * erases by accident. It cannot be undone.
 */
export const SubjectEraseBody = SubjectQuery.and(
  z.object({
    confirm: z.literal(true, { error: "Erasure cannot be undone: send confirm: true to go ahead." }),
  }),
);
export type SubjectEraseBody = z.infer<typeof SubjectEraseBody>;

/** What an erasure changed, by kind (docs/privacy.md says what each one means). */
export const SubjectErasure = z.object({
  /** Call logs whose numbers and content were removed (the row stays for billing and analytics). */
  calls: z.number().int(),
  /** Recording files and old database recordings removed. */
  recordings: z.number().int(),
  /** Campaign rows anonymised (a pending one is cancelled: it is never dialled). */
  campaign_contacts: z.number().int(),
  /** Do-not-call entries whose number is now kept only as a hash, so the number stays blocked. */
  do_not_call: z.number().int(),
  /** Webhook deliveries about those calls whose body was emptied. */
  webhook_deliveries: z.number().int(),
});
export type SubjectErasure = z.infer<typeof SubjectErasure>;

/** A campaign row as a person's export holds it: the number, the variables uploaded with it, its outcome. */
export const SubjectCampaignContact = z.object({
  id: z.uuid(),
  batch_call_id: z.uuid(),
  campaign_name: z.string(),
  number: z.string(),
  variables: z.record(z.string(), z.string()),
  status: z.string(),
  attempts: z.number().int(),
  last_outcome: z.string().nullable(),
  call_id: z.uuid().nullable(),
  updated_at: z.string(),
});
export type SubjectCampaignContact = z.infer<typeof SubjectCampaignContact>;

/**
 * `subject.json` of a person's export (POST /privacy/subjects/export): whom it is about, when, and
 * every record found; each call with a recording names its WAV in the ZIP (`recordings/<call id>.wav`).
 */
export const SubjectExport = z.object({
  query: z.object({ phone: z.string().optional(), email: z.string().optional() }),
  exported_at: z.string(),
  campaign_contacts: z.array(SubjectCampaignContact),
  do_not_call: SubjectRecords.shape.do_not_call,
  calls: z.array(CallLog.extend({ recording_file: z.string().nullable() })),
  /** Recordings left out because the ZIP would pass 4 GB (each call still says it has one: fetch it from its call log). */
  recordings_left_out: z.number().int(),
});
export type SubjectExport = z.infer<typeof SubjectExport>;
