import type { Assistant, AssistantFields, VersionLinks } from "@parley/contract";
import { eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type AgentRow, agents, assistantVersions, callVersions } from "./schema.ts";
import { toAssistant } from "./service.ts";

/**
 * Which configuration a call runs (issue 30). The assistants row is the published version; an
 * experiment may give a call another version, whose snapshot then runs instead. The choice is
 * recorded when the call's room opens (recordCallVersion) and read back when its session starts,
 * on whichever node the caller joins (findCallAssistant): every channel goes through both.
 */

/** The version a call runs, and the experiment variant that chose it (none: the published version). */
export interface VersionChoice {
  version: number;
  experimentId: string | null;
  variantId: string | null;
}

/** The assistant as a version of it runs: the live row when that is the published version, else its snapshot. */
function asVersion(row: AgentRow, snapshot: AssistantFields | null): Assistant {
  if (!snapshot) return toAssistant(row);
  const { name, ...config } = snapshot;
  return toAssistant({ ...row, name, config });
}

/**
 * The configuration of a version of the assistant, for a call about to open (its providers' keys
 * are checked against it); undefined when the assistant or the version is gone.
 */
export async function assistantOfVersion(
  db: Executor,
  tenant: TenantScope,
  row: AgentRow,
  version: number,
): Promise<Assistant | undefined> {
  if (version === row.publishedVersion) return toAssistant(row);
  const [snapshot] = await db
    .select({ config: assistantVersions.config })
    .from(assistantVersions)
    .where(
      scoped(assistantVersions, tenant).where(
        eq(assistantVersions.agentId, row.id),
        eq(assistantVersions.number, version),
      ),
    );
  return snapshot ? asVersion(row, snapshot.config) : undefined;
}

/**
 * The assistant as one of its versions runs (the published one when `version` is null), for what
 * prepares its calls (a test run's caller and judge); undefined once the assistant or the version is gone.
 */
export async function findAssistantAtVersion(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  version: number | null,
): Promise<Assistant | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(scoped(agents, tenant).where(eq(agents.id, agentId)));
  if (!row) return undefined;
  return version === null ? toAssistant(row) : assistantOfVersion(db, tenant, row, version);
}

/** Records the version a call runs, once its log exists. */
export async function recordCallVersion(
  db: Executor,
  tenant: TenantScope,
  call: { callId: string; agentId: string },
  choice: VersionChoice,
): Promise<void> {
  await db.insert(callVersions).values(
    scoped(callVersions, tenant).values({
      callId: call.callId,
      agentId: call.agentId,
      version: choice.version,
      experimentId: choice.experimentId,
      variantId: choice.variantId,
    }),
  );
}

/**
 * What a call runs: the assistant's fields and, for a version other than the published one, the
 * links that version recorded (its functions, tool servers, documents, workflow version). A link
 * kind absent from `links` runs live: the published version always does (its links are the live
 * tables, which workflow attachments keep current), and so does a kind a version was published
 * before it was recorded (an older version has no `document_ids`, say).
 */
export interface CallRun {
  assistant: Assistant;
  links: VersionLinks;
}

/**
 * What a call runs, in one query: the version recorded for the call (its snapshot and links unless
 * it is the published one), or the published version for a call opened before versions were
 * recorded. Undefined once the assistant has been deleted.
 */
export async function findCallRun(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  callId: string,
): Promise<CallRun | undefined> {
  const [row] = await db
    .select({
      agent: agents,
      version: callVersions.version,
      snapshot: assistantVersions.config,
      links: assistantVersions.links,
    })
    .from(agents)
    // The version recorded for this call of this assistant: another assistant the call runs later (a
    // squad's hand-off) has none recorded, and runs its published version.
    .leftJoin(
      callVersions,
      scoped(callVersions, tenant).where(eq(callVersions.callId, callId), eq(callVersions.agentId, agents.id)),
    )
    .leftJoin(
      assistantVersions,
      scoped(assistantVersions, tenant).where(
        eq(assistantVersions.agentId, agents.id),
        eq(assistantVersions.number, callVersions.version),
      ),
    )
    .where(scoped(agents, tenant).where(eq(agents.id, agentId)));
  if (!row) return undefined;
  const other = row.version !== null && row.version !== row.agent.publishedVersion && row.snapshot !== null;
  return { assistant: asVersion(row.agent, other ? row.snapshot : null), links: other ? (row.links ?? {}) : {} };
}

/** The assistant a call runs (see findCallRun), for callers that need its fields only. */
export async function findCallAssistant(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  callId: string,
): Promise<Assistant | undefined> {
  return (await findCallRun(db, tenant, agentId, callId))?.assistant;
}

/**
 * The versions the calls ran (those recorded; a call opened before versions has none), for the
 * call logs to show: they may not read this module's tables themselves.
 */
export async function callVersionsOf(
  db: Executor,
  tenant: TenantScope,
  callIds: string[],
): Promise<Map<string, VersionChoice>> {
  if (callIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(callVersions)
    .where(scoped(callVersions, tenant).where(inArray(callVersions.callId, callIds)));
  return new Map(
    rows.map((r) => [r.callId, { version: r.version, experimentId: r.experimentId, variantId: r.variantId }]),
  );
}
