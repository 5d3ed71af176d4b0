import { z } from "zod";
import { timestamps } from "./resource-fields.ts";

const limit = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0)
    .max(1_000_000);

export const TierBody = z.object({
  name: z.string().trim().min(1, "Tier name is required").max(60),
  description: z.string().trim().max(500).nullable().optional(),
  max_assistants: limit("Max assistants"),
  minutes_per_month: limit("Minutes per month"),
  concurrent_calls: limit("Concurrent calls"),
  max_workspaces: limit("Max workspaces"),
  price: z.number().min(0).max(1_000_000),
});
export type TierBody = z.infer<typeof TierBody>;

export const Tier = TierBody.extend({
  id: z.string(),
  description: z.string().nullable(),
  user_count: z.number().int(),
  ...timestamps,
});
export type Tier = z.infer<typeof Tier>;

export const AssignTierBody = z.object({ tier_id: z.uuid() });

export const QuotaBody = z.object({
  max_assistants: limit("Max assistants"),
  minutes_per_month: limit("Minutes per month"),
  concurrent_calls: limit("Concurrent calls"),
  max_workspaces: limit("Max workspaces"),
});
export type QuotaBody = z.infer<typeof QuotaBody>;

export const EnterpriseQuota = QuotaBody.extend({
  user_id: z.string(),
  /** Concurrency already handed to the user's owned workspaces. */
  allocated_concurrency: z.number().int(),
  updated_at: z.string(),
});
export type EnterpriseQuota = z.infer<typeof EnterpriseQuota>;

export const AdminStats = z.object({
  total_users: z.number().int(),
  active_users: z.number().int(),
  superusers: z.number().int(),
  workspaces: z.number().int(),
  tiers: z.number().int(),
  enterprise_users: z.number().int(),
  signups_last_30_days: z.number().int(),
});
export type AdminStats = z.infer<typeof AdminStats>;

/**
 * GET /users/me/limits: what the caller may use, and where the numbers come from: "tier" (the tier's
 * limits as it stands now), "enterprise" (an override an admin set by hand, which wins over the
 * tier) or "none" (no limits).
 */
export const MyLimits = z.object({
  source: z.enum(["enterprise", "tier", "none"]),
  /** The caller's tier, also when an override wins over its limits. */
  tier_name: z.string().nullable(),
  max_assistants: z.number().int().nullable(),
  minutes_per_month: z.number().int().nullable(),
  concurrent_calls: z.number().int().nullable(),
  max_workspaces: z.number().int().nullable(),
  allocated_concurrency: z.number().int(),
  owned_workspaces: z.number().int(),
});
export type MyLimits = z.infer<typeof MyLimits>;
