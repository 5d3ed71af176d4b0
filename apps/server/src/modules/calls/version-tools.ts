import type { VersionLinks } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { listFunctionsByIds } from "../functions/service.ts";
import { listMcpServersByIds, type McpServerRow } from "../mcp-servers/service.ts";
import type { PinnedTools } from "./tool-runner.ts";

/** The records a call of an assistant version runs in place of the assistant's live links (issue 30). */
export interface VersionTools extends PinnedTools {
  mcpServers?: McpServerRow[];
}

/** Ids a version recorded whose records have been deleted since, per kind. */
export type SkippedLinks = Partial<Record<"function_ids" | "mcp_server_ids", string[]>>;

function missing(ids: string[], found: { id: string }[]): string[] {
  const there = new Set(found.map((row) => row.id));
  return ids.filter((id) => !there.has(id));
}

/**
 * Loads the functions and tool servers a version was published with, by the ids it recorded; a
 * kind it did not record (a version from before that kind was recorded, or the published version,
 * whose links are {}) is left out and runs live. Ids deleted since are skipped, never a failure:
 * the call runs with what is left, and `skipped` says what was dropped for the call's log.
 * Documents: knowledge search reads only those the version recorded (none: no search tool).
 */
export async function versionTools(
  db: Executor,
  tenant: TenantScope,
  links: VersionLinks,
): Promise<{ tools: VersionTools; skipped: SkippedLinks }> {
  const [functions, mcpServers] = await Promise.all([
    links.function_ids ? listFunctionsByIds(db, tenant, links.function_ids) : undefined,
    links.mcp_server_ids ? listMcpServersByIds(db, tenant, links.mcp_server_ids) : undefined,
  ]);
  const tools: VersionTools = {};
  const skipped: SkippedLinks = {};
  if (functions && links.function_ids) {
    tools.functions = functions;
    const gone = missing(links.function_ids, functions);
    if (gone.length > 0) skipped.function_ids = gone;
  }
  if (mcpServers && links.mcp_server_ids) {
    tools.mcpServers = mcpServers;
    const gone = missing(links.mcp_server_ids, mcpServers);
    if (gone.length > 0) skipped.mcp_server_ids = gone;
  }
  if (links.document_ids) tools.documentIds = links.document_ids;
  return { tools, skipped };
}
