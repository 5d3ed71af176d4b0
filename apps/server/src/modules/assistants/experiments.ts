import type { CreateExperimentBody, Experiment, ExperimentAction, ExperimentStatus } from "@parley/contract";
import { asc, desc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found, scoped, type Tenant, type TenantScope } from "../../lib/tenant-scope.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { type ExperimentRow, type ExperimentVariantRow, experiments, experimentVariants } from "./schema.ts";
import { requireAgent } from "./service.ts";
import { publishVersionAgain } from "./version-actions.ts";
import { findVersionRow } from "./versions.ts";

export const EXPERIMENT_TEXTS = {
  notFound: "Experiment not found.",
  unknownVersion: (n: number) => `Version ${n} of this assistant does not exist.`,
  badTransition: (action: string, status: string) => `An experiment that is ${status} cannot ${action}.`,
  oneActive: "Another experiment of this assistant is running or paused: end it first.",
  notAVariant: (n: number) => `Version ${n} is not a variant of this experiment.`,
  promoted: "This experiment has already promoted a winner.",
} as const;

/** The status each action leads to, from the statuses it may leave. */
const TRANSITIONS: Record<ExperimentAction, { from: ExperimentStatus[]; to: ExperimentStatus }> = {
  start: { from: ["draft"], to: "running" },
  pause: { from: ["running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  end: { from: ["draft", "running", "paused"], to: "ended" },
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toExperiment(row: ExperimentRow, variants: ExperimentVariantRow[]): Experiment {
  return {
    id: row.id,
    agent_id: row.agentId,
    name: row.name,
    channel: row.channel,
    status: row.status,
    variants: variants.map((v) => ({ id: v.id, version: v.version, percent: v.percent })),
    winner_version: row.winnerVersion,
    started_at: iso(row.startedAt),
    ended_at: iso(row.endedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The experiments' variants in their order, by experiment id. */
export async function variantsOf(db: Executor, tenant: TenantScope, ids: string[]) {
  const byExperiment = new Map<string, ExperimentVariantRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byExperiment;
  const rows = await db
    .select()
    .from(experimentVariants)
    .where(scoped(experimentVariants, tenant).where(inArray(experimentVariants.experimentId, ids)))
    .orderBy(asc(experimentVariants.position));
  for (const row of rows) byExperiment.get(row.experimentId)?.push(row);
  return byExperiment;
}

export async function requireExperiment(db: Executor, tenant: TenantScope, agentId: string, id: string) {
  const [row] = await db
    .select()
    .from(experiments)
    .where(scoped(experiments, tenant).where(eq(experiments.id, id), eq(experiments.agentId, agentId)));
  const experiment = found(row, EXPERIMENT_TEXTS.notFound);
  const variants = (await variantsOf(db, tenant, [experiment.id])).get(experiment.id) ?? [];
  return { experiment, variants };
}

export async function listExperiments(db: Executor, tenant: TenantScope, agentId: string): Promise<Experiment[]> {
  await requireAgent(db, tenant, agentId);
  const rows = await db
    .select()
    .from(experiments)
    .where(scoped(experiments, tenant).where(eq(experiments.agentId, agentId)))
    .orderBy(desc(experiments.createdAt), desc(experiments.id));
  const variants = await variantsOf(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toExperiment(row, variants.get(row.id) ?? []));
}

/** A draft experiment over versions the assistant has; it splits no call until started. */
export async function createExperiment(
  ctx: AppContext,
  tenant: TenantScope,
  agentId: string,
  body: CreateExperimentBody & { channel: Experiment["channel"] },
): Promise<Experiment> {
  const { db } = ctx;
  await requireAgent(db, tenant, agentId);
  for (const { version } of body.variants) {
    if (!(await findVersionRow(db, tenant, agentId, version))) {
      throw new AppError("validation", EXPERIMENT_TEXTS.unknownVersion(version));
    }
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(experiments)
      .values(scoped(experiments, tenant).values({ agentId, name: body.name, channel: body.channel }))
      .returning();
    if (!row) throw new Error("insert into experiments returned no row");
    const variants = await tx
      .insert(experimentVariants)
      .values(
        body.variants.map((v, position) =>
          scoped(experimentVariants, tenant).values({ experimentId: row.id, position, ...v }),
        ),
      )
      .returning();
    return toExperiment(row, variants);
  });
}

async function setStatus(
  ctx: AppContext,
  tenant: TenantScope,
  experiment: ExperimentRow,
  changes: Partial<Pick<ExperimentRow, "status" | "startedAt" | "endedAt" | "winnerVersion">>,
): Promise<ExperimentRow> {
  try {
    const [row] = await ctx.db
      .update(experiments)
      .set({ ...changes, updatedAt: ctx.now() })
      .where(scoped(experiments, tenant).where(eq(experiments.id, experiment.id)))
      .returning();
    return found(row, EXPERIMENT_TEXTS.notFound);
  } catch (error) {
    // The one-active-experiment index: another experiment of the assistant runs or is paused.
    if (isUniqueViolation(error)) throw new AppError("conflict", EXPERIMENT_TEXTS.oneActive);
    throw error;
  }
}

/** start, pause, resume or end; any other move from the current status is a 409. */
export async function actOnExperiment(
  ctx: AppContext,
  tenant: TenantScope,
  agentId: string,
  id: string,
  action: ExperimentAction,
): Promise<Experiment> {
  const { experiment, variants } = await requireExperiment(ctx.db, tenant, agentId, id);
  const move = TRANSITIONS[action];
  if (!move.from.includes(experiment.status)) {
    throw new AppError("conflict", EXPERIMENT_TEXTS.badTransition(action, experiment.status));
  }
  const now = ctx.now();
  const row = await setStatus(ctx, tenant, experiment, {
    status: move.to,
    ...(action === "start" ? { startedAt: now } : {}),
    ...(action === "end" ? { endedAt: now } : {}),
  });
  return toExperiment(row, variants);
}

/**
 * Promote the winner: its version is published again as the assistant's next version (note
 * "Promoted vN from experiment …") and the experiment ends with it as winner.
 */
export async function promoteWinner(
  ctx: AppContext,
  tenant: Tenant,
  agentId: string,
  id: string,
  body: { version: number; note?: string | undefined },
): Promise<Experiment> {
  const { experiment, variants } = await requireExperiment(ctx.db, tenant, agentId, id);
  if (experiment.winnerVersion !== null) throw new AppError("conflict", EXPERIMENT_TEXTS.promoted);
  if (!variants.some((v) => v.version === body.version)) {
    throw new AppError("validation", EXPERIMENT_TEXTS.notAVariant(body.version));
  }
  const note = body.note || `Promoted v${body.version} from experiment "${experiment.name}"`;
  await publishVersionAgain(ctx, tenant, agentId, body.version, note);
  const row = await setStatus(ctx, tenant, experiment, {
    status: "ended",
    winnerVersion: body.version,
    endedAt: experiment.endedAt ?? ctx.now(),
  });
  return toExperiment(row, variants);
}

/** Deletes an experiment that never ran (a draft); one that ran keeps its record for its results. */
export async function deleteDraftExperiment(db: Executor, tenant: TenantScope, agentId: string, id: string) {
  const { experiment } = await requireExperiment(db, tenant, agentId, id);
  if (experiment.status !== "draft")
    throw new AppError("conflict", EXPERIMENT_TEXTS.badTransition("be deleted", experiment.status));
  await db.delete(experiments).where(scoped(experiments, tenant).where(eq(experiments.id, id)));
}
