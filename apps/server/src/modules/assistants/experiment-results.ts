import type { ExperimentResults, VariantResult } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CallFigures, readCallFigures } from "./call-figures.ts";
import { percentile, twoProportionPValue } from "./experiment-stats.ts";
import { requireExperiment } from "./experiments.ts";
import { callVersions, type ExperimentVariantRow } from "./schema.ts";

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

interface Tally {
  variant: ExperimentVariantRow;
  calls: number;
  figures: CallFigures[];
}

function successes(tally: Tally) {
  const judged = tally.figures.filter((f) => f.passed !== null);
  return { successes: judged.filter((f) => f.passed).length, trials: judged.length };
}

function resultOf(tally: Tally, baseline: Tally | undefined): VariantResult {
  const { figures, variant } = tally;
  const success = successes(tally);
  const latencies = figures.flatMap((f) => f.latenciesMs);
  return {
    variant_id: variant.id,
    version: variant.version,
    percent: variant.percent,
    calls: tally.calls,
    judged: success.trials,
    success_rate: ratio(success.successes, success.trials),
    avg_duration_seconds: mean(figures.map((f) => f.durationSeconds)),
    transfer_rate: ratio(figures.filter((f) => f.transferred).length, figures.length),
    cost_per_call: mean(figures.map((f) => f.cost)),
    p50_latency_ms: percentile(latencies, 50),
    p95_latency_ms: percentile(latencies, 95),
    p_value: baseline && baseline !== tally ? twoProportionPValue(successes(baseline), success) : null,
  };
}

/** A call the experiment gave a variant (from call_versions). */
export interface AssignedCall {
  callId: string;
  variantId: string | null;
}

/**
 * Per variant: the calls it was given (rooms opened), and over those whose logs have ended the
 * success rate, average duration, transfer rate, cost per call and p50/p95 of the caller's wait,
 * with the p-value of its success rate against the first variant's.
 */
export function variantResults(
  variants: ExperimentVariantRow[],
  calls: AssignedCall[],
  figures: CallFigures[],
): VariantResult[] {
  const byCall = new Map(figures.map((f) => [f.callId, f]));
  const tallies = variants.map((variant): Tally => {
    const mine = calls.filter((c) => c.variantId === variant.id);
    return { variant, calls: mine.length, figures: mine.flatMap((c) => byCall.get(c.callId) ?? []) };
  });
  return tallies.map((t) => resultOf(t, tallies[0]));
}

export async function experimentResults(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  id: string,
): Promise<ExperimentResults> {
  const { experiment, variants } = await requireExperiment(db, tenant, agentId, id);
  const calls = await db
    .select({ callId: callVersions.callId, variantId: callVersions.variantId })
    .from(callVersions)
    .where(scoped(callVersions, tenant).where(eq(callVersions.experimentId, experiment.id)));
  const figures = await readCallFigures(
    db,
    tenant,
    calls.map((c) => c.callId),
  );
  return { experiment_id: experiment.id, variants: variantResults(variants, calls, figures) };
}
