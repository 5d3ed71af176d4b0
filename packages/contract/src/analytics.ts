import { z } from "zod";
import { CallChannel } from "./calls.ts";

/**
 * Analytics (issue 33): what the calls did over time, read from a rollup kept as calls end. The
 * figures use one definition with Home, /billing and the call logs (docs/analytics.md): a call is
 * *answered* (counted, billed) once its caller connected; every ended call is an *attempt*.
 */

/** The latency components a turn records (call logs' turn metrics). */
export const LATENCY_COMPONENTS = ["end_of_turn", "transcriber", "model", "voice", "voice_to_voice"] as const;
export const LatencyComponent = z.enum(LATENCY_COMPONENTS);
export type LatencyComponent = z.infer<typeof LatencyComponent>;

/** The cost components of a call (its usage lines, the model's input and output together). */
export const COST_COMPONENTS = ["llm", "stt", "tts", "telephony", "platform"] as const;
export type CostComponent = (typeof COST_COMPONENTS)[number];

const latencyMetrics = LATENCY_COMPONENTS.flatMap(
  (c) => [`latency_avg_${c}`, `latency_p50_${c}`, `latency_p95_${c}`] as const,
);

export const ANALYTICS_METRICS = [
  "calls",
  "attempts",
  "unanswered",
  "minutes",
  "avg_duration_seconds",
  "p50_duration_seconds",
  "p95_duration_seconds",
  "analysed",
  "passed",
  "success_rate",
  "transfers",
  "transfer_rate",
  "failed",
  "error_calls",
  "error_rate",
  "cost",
  ...COST_COMPONENTS.map((c) => `cost_${c}` as const),
  ...latencyMetrics,
] as const;
export const AnalyticsMetric = z.enum(ANALYTICS_METRICS);
export type AnalyticsMetric = z.infer<typeof AnalyticsMetric>;

export const ANALYTICS_DIMENSIONS = [
  "assistant",
  "version",
  "phone_number",
  "campaign",
  "channel",
  "end_reason",
  "squad_member",
] as const;
export const AnalyticsDimension = z.enum(ANALYTICS_DIMENSIONS);
export type AnalyticsDimension = z.infer<typeof AnalyticsDimension>;

export const AnalyticsBucket = z.enum(["day", "week", "month", "total"]);
export type AnalyticsBucket = z.infer<typeof AnalyticsBucket>;

/** The longest range one query may span. */
export const ANALYTICS_MAX_RANGE_DAYS = 732;

/** A comma-separated query parameter (`metrics=calls,minutes`) as a list of one enum's values. */
const listOf = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const items = [
        ...new Set(
          s
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ];
      const bad = items.filter((x) => !(values as readonly string[]).includes(x));
      if (bad.length > 0) {
        ctx.addIssue({ code: "custom", message: `Unknown ${what}: ${bad.join(", ")}. Known: ${values.join(", ")}.` });
        return z.NEVER;
      }
      return items as T[number][];
    });

const Day = z.iso.date({ error: "Use a date as YYYY-MM-DD" });

/** GET /analytics/query: days are the workspace's (its time zone), both ends included. */
export const AnalyticsQuery = z
  .object({
    metrics: listOf(ANALYTICS_METRICS, "metric").default([
      "calls",
      "minutes",
      "success_rate",
      "cost",
    ] as AnalyticsMetric[]),
    group_by: listOf(ANALYTICS_DIMENSIONS, "dimension").default([] as AnalyticsDimension[]),
    from: Day,
    to: Day,
    bucket: AnalyticsBucket.default("day"),
    assistant_id: z.uuid().optional(),
    version: z.coerce.number().int().min(1).optional(),
    phone_number: z.string().trim().min(1).max(100).optional(),
    campaign_id: z.uuid().optional(),
    channel: CallChannel.optional(),
    end_reason: z.string().trim().min(1).max(60).optional(),
    squad_member: z.string().trim().min(1).max(100).optional(),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .refine((q) => q.from <= q.to, { message: "The range's start must not be after its end", path: ["from"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYTICS_MAX_RANGE_DAYS, {
    message: `A range spans at most ${ANALYTICS_MAX_RANGE_DAYS} days`,
    path: ["to"],
  })
  .refine((q) => q.group_by.length <= 3, { message: "Group by at most 3 dimensions", path: ["group_by"] })
  .refine((q) => q.metrics.length > 0, { message: "Ask for at least one metric", path: ["metrics"] });
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;
export type AnalyticsQueryParsed = z.output<typeof AnalyticsQuery>;

/** One group's key on one dimension: its id (null: none, e.g. a web call has no phone number) and a label. */
export const AnalyticsKey = z.object({ value: z.string().nullable(), label: z.string() });
export type AnalyticsKey = z.infer<typeof AnalyticsKey>;

export const AnalyticsRow = z.object({
  /** The bucket's first day (YYYY-MM-DD, the workspace's zone); null for bucket `total`. */
  bucket: z.string().nullable(),
  keys: z.partialRecord(AnalyticsDimension, AnalyticsKey),
  /** Null when a rate or a quantile has nothing to be computed from (no analysed call, no turn). */
  values: z.partialRecord(AnalyticsMetric, z.number().nullable()),
});
export type AnalyticsRow = z.infer<typeof AnalyticsRow>;

export const AnalyticsResult = z.object({
  from: z.string(),
  to: z.string(),
  bucket: AnalyticsBucket,
  time_zone: z.string(),
  metrics: z.array(AnalyticsMetric),
  group_by: z.array(AnalyticsDimension),
  rows: z.array(AnalyticsRow),
  /** The whole range, same filters, not grouped. */
  totals: z.partialRecord(AnalyticsMetric, z.number().nullable()),
  currency: z.literal("USD"),
});
export type AnalyticsResult = z.infer<typeof AnalyticsResult>;

/** A time zone the server's database knows (IANA name). */
export const TimeZoneName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: "Unknown time zone; use an IANA name such as Europe/Paris" },
  );

/** GET/PUT /analytics/settings. */
export const AnalyticsSettings = z.object({ time_zone: TimeZoneName });
export type AnalyticsSettings = z.infer<typeof AnalyticsSettings>;

// ── alerts ────────────────────────────────────────────────────────────────────

export const ALERT_KINDS = ["success_rate_below", "p95_latency_above", "error_rate_above", "spend_above"] as const;
export const AlertKind = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof AlertKind>;

export const ALERT_MAX_RULES = 50;
/** Success and error rates are judged over a workspace's last N calls, within these bounds. */
export const ALERT_WINDOW_CALLS = { min: 5, max: 10_000, default: 50 } as const;
/** Latency is judged over the last N hours. */
export const ALERT_WINDOW_HOURS = { min: 1, max: 168, default: 24 } as const;

const Emails = z
  .array(z.email("Enter valid email addresses").max(254))
  .max(10, "At most 10 addresses")
  .transform((e) => [...new Set(e.map((x) => x.toLowerCase()))]);

export const AlertRuleInput = z
  .object({
    name: z.string().trim().min(1, "Name the rule").max(100),
    kind: AlertKind,
    /** success_rate_below / error_rate_above: a percentage; p95_latency_above: ms; spend_above: USD this month. */
    threshold: z.number().min(0, "The threshold cannot be negative").max(1_000_000),
    window_calls: z
      .number()
      .int()
      .min(ALERT_WINDOW_CALLS.min)
      .max(ALERT_WINDOW_CALLS.max)
      .default(ALERT_WINDOW_CALLS.default),
    window_hours: z
      .number()
      .int()
      .min(ALERT_WINDOW_HOURS.min)
      .max(ALERT_WINDOW_HOURS.max)
      .default(ALERT_WINDOW_HOURS.default),
    component: LatencyComponent.default("voice_to_voice"),
    assistant_id: z.uuid().nullable().default(null),
    emails: Emails.default([]),
    enabled: z.boolean().default(true),
  })
  .refine((r) => !(r.kind.endsWith("_rate_below") || r.kind === "error_rate_above") || r.threshold <= 100, {
    message: "A rate is a percentage from 0 to 100",
    path: ["threshold"],
  });
export type AlertRuleInput = z.input<typeof AlertRuleInput>;

export const AlertRule = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: AlertKind,
  threshold: z.number(),
  window_calls: z.number().int(),
  window_hours: z.number().int(),
  component: LatencyComponent,
  assistant_id: z.uuid().nullable(),
  emails: z.array(z.string()),
  enabled: z.boolean(),
  /** In breach since the last evaluation that fired; fires again only after it recovered. */
  firing: z.boolean(),
  last_value: z.number().nullable(),
  last_evaluated_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AlertRule = z.infer<typeof AlertRule>;
export const AlertRuleList = z.array(AlertRule);

export const AlertEvent = z.object({
  id: z.uuid(),
  rule_id: z.uuid().nullable(),
  rule_name: z.string(),
  kind: AlertKind,
  state: z.enum(["triggered", "recovered"]),
  value: z.number(),
  threshold: z.number(),
  /** What was measured, in words (English): also the email's and the webhook's text. */
  message: z.string(),
  emailed: z.number().int(),
  created_at: z.string(),
});
export type AlertEvent = z.infer<typeof AlertEvent>;
export const AlertEventList = z.array(AlertEvent);
