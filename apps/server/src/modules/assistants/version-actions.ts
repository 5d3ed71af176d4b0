import type { Assistant, VersionDiff, VersionLinks } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Tenant, TenantScope } from "../../lib/tenant-scope.ts";
import { draftOf } from "./draft.ts";
import { requireAgent, toAssistant } from "./service.ts";
import { diffConfigs } from "./version-diff.ts";
import { publishConfig, requireVersionRow, toVersion } from "./versions.ts";

export const NOTHING_TO_PUBLISH = "The draft has no changes to publish.";

/** Publishes the pending draft; with none pending there is nothing to publish (409). */
export async function publishDraft(ctx: AppContext, tenant: Tenant, agentId: string, note: string): Promise<Assistant> {
  const row = await requireAgent(ctx.db, tenant, agentId);
  if (!row.draft) throw new AppError("conflict", NOTHING_TO_PUBLISH);
  const published = await publishConfig(
    ctx.db,
    tenant,
    agentId,
    draftOf(row),
    { note, authorId: tenant.userId },
    ctx.now(),
  );
  return toAssistant(published);
}

/**
 * Rollback: the old version's configuration becomes the next version, so the history only grows
 * and every call log's version number keeps meaning what it ran. A pending draft stays pending:
 * it is the editor's work, not what was rolled back.
 */
export async function publishVersionAgain(
  ctx: AppContext,
  tenant: Tenant,
  agentId: string,
  number: number,
  note: string,
): Promise<Assistant> {
  const version = await requireVersionRow(ctx.db, tenant, agentId, number);
  const { config } = toVersion(version, 0);
  const published = await publishConfig(
    ctx.db,
    tenant,
    agentId,
    config,
    {
      note,
      authorId: tenant.userId,
      keepDraft: true,
    },
    ctx.now(),
  );
  return toAssistant(published);
}

export async function restoreVersion(ctx: AppContext, tenant: Tenant, agentId: string, number: number) {
  await requireAgent(ctx.db, tenant, agentId);
  return publishVersionAgain(ctx, tenant, agentId, number, `Rollback to v${number}`);
}

/**
 * The links both versions recorded: a version records only what the modules registered to read
 * at its publish (version-links.ts), so a link kind one of them lacks is unknown there, not removed.
 */
function recordedByBoth(a: VersionLinks, b: VersionLinks): [VersionLinks, VersionLinks] {
  const keys = (Object.keys(a) as (keyof VersionLinks)[]).filter((key) => key in b);
  const pick = (links: VersionLinks) => Object.fromEntries(keys.map((key) => [key, links[key]]));
  return [pick(a), pick(b)];
}

/** The field-level changes from one version to another, links included (`links.function_ids`…). */
export async function diffVersions(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  query: { from: number; to: number },
): Promise<VersionDiff> {
  const agent = await requireAgent(db, tenant, agentId);
  const [from, to] = await Promise.all([
    requireVersionRow(db, tenant, agent.id, query.from),
    requireVersionRow(db, tenant, agent.id, query.to),
  ]);
  const a = toVersion(from, agent.publishedVersion);
  const b = toVersion(to, agent.publishedVersion);
  const [linksA, linksB] = recordedByBoth(a.links, b.links);
  const changes = diffConfigs({ ...a.config, links: linksA }, { ...b.config, links: linksB });
  return { from: query.from, to: query.to, changes };
}
