import { z } from "zod";

/**
 * Metering and billing: what each call used per component, priced from the provider descriptors'
 * list prices, summed per workspace, assistant and day, and billed per calendar month (UTC).
 */

/** What a call is billed for, one usage line each. */
export const UsageComponent = z.enum(["llm_input", "llm_output", "stt", "tts", "telephony"]);
export type UsageComponent = z.infer<typeof UsageComponent>;

/** The unit each component is counted in. */
export const UsageUnit = z.enum(["token", "minute", "character"]);
export type UsageUnit = z.infer<typeof UsageUnit>;

export const USAGE_UNITS: Record<UsageComponent, UsageUnit> = {
  llm_input: "token",
  llm_output: "token",
  stt: "minute",
  tts: "character",
  telephony: "minute",
};

/**
 * Voice prices are listed per minute of call assuming the assistant speaks about half of it; that is
 * this many characters of speech (≈150 words a minute, spoken half the time). A call is billed for
 * the characters it actually synthesized at the listed price divided by this.
 */
export const TTS_CHARACTERS_PER_PRICED_MINUTE = 500;

/** One component of one call: quantity × unit price (USD per unit) = cost. */
export const UsageLine = z.object({
  component: UsageComponent,
  provider: z.string(),
  model: z.string(),
  unit: UsageUnit,
  quantity: z.number(),
  unit_price: z.number(),
  cost: z.number(),
});
export type UsageLine = z.infer<typeof UsageLine>;

/** A calendar month in UTC, `YYYY-MM`. */
export const BillingPeriod = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month as YYYY-MM");
export type BillingPeriod = z.infer<typeof BillingPeriod>;

export const BillingUsageQuery = z.object({ period: BillingPeriod.optional() });

export const PlanLimits = z.object({
  minutes_per_month: z.number(),
  concurrent_calls: z.number(),
  max_assistants: z.number(),
  max_workspaces: z.number(),
});

/** The plan the workspace's calls count against: its owner's tier, or their enterprise quota. */
export const BillingPlan = z.object({
  /** Null without a tier (an enterprise quota alone, or no plan: unlimited). */
  tier_name: z.string().nullable(),
  /** USD a month; null without a tier. */
  monthly_price: z.number().nullable(),
  source: z.enum(["tier", "enterprise"]).nullable(),
  /** Null when nothing limits the workspace. */
  limits: PlanLimits.nullable(),
  /** Minutes used this period over every workspace of the plan's owner (what the limit counts). */
  minutes_used: z.number(),
  assistants_used: z.number(),
  workspaces_used: z.number(),
});
export type BillingPlan = z.infer<typeof BillingPlan>;

export const DailyUsage = z.object({ day: z.string(), minutes: z.number(), cost: z.number(), calls: z.number() });
export const ComponentUsage = z.object({
  component: UsageComponent,
  provider: z.string(),
  model: z.string(),
  unit: UsageUnit,
  quantity: z.number(),
  cost: z.number(),
});
export type ComponentUsage = z.infer<typeof ComponentUsage>;
export const AssistantUsage = z.object({
  agent_id: z.string().nullable(),
  agent_name: z.string(),
  calls: z.number(),
  minutes: z.number(),
  cost: z.number(),
});
export const PeriodTotal = z.object({
  period: BillingPeriod,
  calls: z.number(),
  minutes: z.number(),
  cost: z.number(),
});
export type PeriodTotal = z.infer<typeof PeriodTotal>;

/** GET /billing/usage: one period of the workspace's usage. */
export const BillingUsage = z.object({
  period: BillingPeriod,
  period_start: z.string(),
  period_end: z.string(),
  currency: z.literal("USD"),
  /** This workspace's calls in the period. */
  calls: z.number(),
  minutes: z.number(),
  cost: z.number(),
  daily: z.array(DailyUsage),
  by_component: z.array(ComponentUsage),
  by_assistant: z.array(AssistantUsage),
  /** Every period with usage, newest first (the current one included). */
  periods: z.array(PeriodTotal),
  /** Only for the current period; null for past ones. */
  plan: BillingPlan.nullable(),
});
export type BillingUsage = z.infer<typeof BillingUsage>;

export const StatementFormat = z.enum(["csv", "pdf"]);
export const StatementQuery = z.object({ format: StatementFormat.default("pdf") });

/** GET /billing/payments: whether a payment provider is configured and what the workspace has there. */
export const PaymentStatus = z.object({
  enabled: z.boolean(),
  /** The plan's tier can be subscribed to (it has a price). */
  can_subscribe: z.boolean(),
  /** The workspace has a customer account with the provider (the portal can open). */
  has_customer: z.boolean(),
});
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** Where to send the browser (checkout or the customer portal). */
export const PaymentRedirect = z.object({ url: z.string() });
export type PaymentRedirect = z.infer<typeof PaymentRedirect>;

export const MINUTES_RUNNING_OUT_WARNING =
  "This call will end shortly: the plan's call minutes for this month are almost used up.";
