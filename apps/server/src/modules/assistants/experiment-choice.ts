import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { CallRequest } from "../../lib/call-runtime.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import type { VersionChoice } from "./call-assistant.ts";
import { bucketOf, callerKeyOf, coversCall, variantAt } from "./experiment-assignment.ts";
import { type AgentRow, experiments, experimentVariants } from "./schema.ts";
import { pinnedVersionOf } from "./version-pins.ts";

/**
 * The version a new call of the assistant runs: the one its placer fixed (a test run's version,
 * version-pins.ts), else its running experiment's variant for this caller when the experiment
 * covers the call's channel, else the published version. One query (the experiment and its
 * variants); a paused or ended experiment splits nothing.
 */
export async function chooseCallVersion(
  db: Executor,
  tenant: TenantScope,
  agent: AgentRow,
  request: CallRequest,
  callId: string,
): Promise<VersionChoice> {
  const pinned = await pinnedVersionOf(db, tenant, request);
  if (pinned !== null) return { version: pinned, experimentId: null, variantId: null };
  const published: VersionChoice = { version: agent.publishedVersion, experimentId: null, variantId: null };
  const rows = await db
    .select({ channel: experiments.channel, variant: experimentVariants })
    .from(experiments)
    .innerJoin(experimentVariants, eq(experimentVariants.experimentId, experiments.id))
    .where(
      scoped(experiments, tenant).where(
        eq(experiments.agentId, agent.id),
        eq(experiments.status, "running"),
        scoped(experimentVariants, tenant).where(),
      ),
    )
    .orderBy(asc(experimentVariants.position));
  const first = rows[0];
  if (!first || !coversCall(first.channel, request)) return published;
  const variants = rows.map((r) => r.variant);
  const chosen = variantAt(variants, bucketOf(first.variant.experimentId, callerKeyOf(request, callId)));
  return chosen ? { version: chosen.version, experimentId: chosen.experimentId, variantId: chosen.id } : published;
}
