import type { AssistantDraft, AssistantFields } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type AgentRow, agents } from "./schema.ts";
import { configOf, toAssistant } from "./service.ts";
import { diffConfigs } from "./version-diff.ts";

/** The published configuration, name included, with today's defaults under what was stored. */
export function publishedOf(row: AgentRow): AssistantFields {
  const { id: _id, temp: _temp, created_at: _c, updated_at: _u, ...fields } = toAssistant(row);
  return fields;
}

/** What the editor works on: the pending draft, or the published configuration when none is pending. */
export function draftOf(row: AgentRow): AssistantFields {
  return row.draft ? { ...publishedOf(row), ...row.draft } : publishedOf(row);
}

export function toDraft(row: AgentRow): AssistantDraft {
  const config = configOf({ ...toAssistant(row), ...draftOf(row) });
  return { config, changed: row.draft !== null, published_version: row.publishedVersion };
}

/**
 * Saves the draft (the published row and its updated_at stay as they are); one equal to the published configuration is no draft (null), so `changed`
 * stays true to its word.
 */
export async function saveDraft(
  db: Executor,
  tenant: TenantScope,
  row: AgentRow,
  fields: AssistantFields,
): Promise<AgentRow> {
  const changed = diffConfigs(publishedOf(row), fields).length > 0;
  const [saved] = await db
    .update(agents)
    .set({ draft: changed ? fields : null })
    .where(scoped(agents, tenant).where(eq(agents.id, row.id)))
    .returning();
  if (!saved) throw new Error("update of agents returned no row");
  return saved;
}
