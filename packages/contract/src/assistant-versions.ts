import { z } from "zod";
import { Assistant } from "./assistants.ts";
import type { CallChannel } from "./calls.ts";

/**
 * Assistant versions and experiments (issue 30). The assistant (GET /agents/{id}) is the
 * PUBLISHED configuration every call runs; the editor edits a draft; each publish is an
 * immutable numbered version; an experiment splits an assistant's calls between versions.
 */

/** An assistant's configuration as a version keeps it: every field of the assistant, its name included. */
export const AssistantConfig = Assistant.omit({ id: true, temp: true, created_at: true, updated_at: true });
export type AssistantConfig = z.infer<typeof AssistantConfig>;

/**
 * What else the version ran besides its fields, as recorded at publish time: the linked functions,
 * tool servers and documents, and the workflow's published version (absent when not recorded).
 */
export const VersionLinks = z.object({
  function_ids: z.array(z.string()).optional(),
  mcp_server_ids: z.array(z.string()).optional(),
  document_ids: z.array(z.string()).optional(),
  workflow_version: z.number().int().nullable().optional(),
});
export type VersionLinks = z.infer<typeof VersionLinks>;

export const AssistantVersionSummary = z.object({
  number: z.number().int(),
  note: z.string(),
  /** Who published it; null for a version Parley wrote itself (the migration's version 1). */
  author_id: z.string().nullable(),
  /** The author's name (their email when they gave none); null without an author or once their account is deleted. */
  author_name: z.string().nullable(),
  created_at: z.string(),
  /** The version calls run now (outside an experiment). */
  published: z.boolean(),
});
export type AssistantVersionSummary = z.infer<typeof AssistantVersionSummary>;

export const AssistantVersion = AssistantVersionSummary.extend({ config: AssistantConfig, links: VersionLinks });
export type AssistantVersion = z.infer<typeof AssistantVersion>;

/** GET /agents/{id}/draft: the configuration the editor works on; `changed` while it differs from the published one. */
export const AssistantDraft = z.object({
  config: AssistantConfig,
  changed: z.boolean(),
  published_version: z.number().int(),
});
export type AssistantDraft = z.infer<typeof AssistantDraft>;

export const PublishBody = z.object({ note: z.string().trim().max(500).default("") });
export type PublishBody = z.input<typeof PublishBody>;

/** PATCH /agents/{id}?publish=false edits the draft only; by default a PATCH publishes, as it always did. */
export const UpdateAssistantQuery = z.object({
  publish: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
});

export const VersionDiffQuery = z.object({
  from: z.coerce.number().int().min(1),
  to: z.coerce.number().int().min(1),
});

/** One field that differs between two versions; nested objects are compared by their leaves (`a.b`). */
export const FieldChange = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });
export type FieldChange = z.infer<typeof FieldChange>;

export const VersionDiff = z.object({
  from: z.number().int(),
  to: z.number().int(),
  changes: z.array(FieldChange),
});
export type VersionDiff = z.infer<typeof VersionDiff>;

/** Which calls an experiment splits: all of them, or those of one channel. */
export const ExperimentChannel = z.enum(["all", "browser", "phone", "sip", "widget", "campaign"]);
export type ExperimentChannel = z.infer<typeof ExperimentChannel>;

/** draft → running ⇄ paused → ended; a draft or paused experiment may also end. */
export const ExperimentStatus = z.enum(["draft", "running", "paused", "ended"]);
export type ExperimentStatus = z.infer<typeof ExperimentStatus>;

export const ExperimentVariantInput = z.object({
  version: z.number().int().min(1),
  percent: z.number().int().min(1).max(100),
});

export const CreateExperimentBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    channel: ExperimentChannel.default("all"),
    variants: z.array(ExperimentVariantInput).min(2).max(10),
  })
  .superRefine((body, ctx) => {
    const total = body.variants.reduce((sum, v) => sum + v.percent, 0);
    if (total !== 100) ctx.addIssue({ code: "custom", path: ["variants"], message: "Percentages must add up to 100." });
    const versions = new Set(body.variants.map((v) => v.version));
    if (versions.size !== body.variants.length) {
      ctx.addIssue({ code: "custom", path: ["variants"], message: "Each version may appear once." });
    }
  });
export type CreateExperimentBody = z.input<typeof CreateExperimentBody>;

export const ExperimentVariant = z.object({ id: z.string(), version: z.number().int(), percent: z.number().int() });
export type ExperimentVariant = z.infer<typeof ExperimentVariant>;

export const Experiment = z.object({
  id: z.string(),
  agent_id: z.string(),
  name: z.string(),
  channel: ExperimentChannel,
  status: ExperimentStatus,
  variants: z.array(ExperimentVariant),
  winner_version: z.number().int().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Experiment = z.infer<typeof Experiment>;

export const ExperimentAction = z.enum(["start", "pause", "resume", "end"]);
export type ExperimentAction = z.infer<typeof ExperimentAction>;

/** POST …/promote: publish the winner (a version of the experiment) and end the experiment. */
export const PromoteBody = z.object({ version: z.number().int().min(1), note: z.string().trim().max(500).optional() });

/** The call channels an experiment's channel covers (a campaign call is a phone call placed by a campaign). */
export const EXPERIMENT_CALL_CHANNELS: Record<Exclude<ExperimentChannel, "all" | "campaign">, CallChannel> = {
  browser: "web",
  phone: "phone",
  sip: "sip",
  widget: "widget",
};

export const VariantResult = z.object({
  variant_id: z.string(),
  version: z.number().int(),
  percent: z.number().int(),
  calls: z.number().int(),
  /** Calls whose post-call analysis gave a success verdict; the rate is over those `judged`. */
  judged: z.number().int(),
  success_rate: z.number().nullable(),
  avg_duration_seconds: z.number().nullable(),
  transfer_rate: z.number().nullable(),
  cost_per_call: z.number().nullable(),
  p50_latency_ms: z.number().nullable(),
  p95_latency_ms: z.number().nullable(),
  /** Two-proportion z-test of the success rate against the first variant (null for it, or too few judged calls). */
  p_value: z.number().nullable(),
});
export type VariantResult = z.infer<typeof VariantResult>;

export const ExperimentResults = z.object({ experiment_id: z.string(), variants: z.array(VariantResult) });
export type ExperimentResults = z.infer<typeof ExperimentResults>;
