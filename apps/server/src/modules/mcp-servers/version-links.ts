import { asc, eq } from "drizzle-orm";
import type { VersionLinkReader } from "../assistants/version-links.ts";
import { agentMcpServers } from "./schema.ts";

/** The tool servers an assistant's new version records (sorted ids), registered by the MCP routes. */
export const mcpServerVersionLinks: VersionLinkReader = async (db, _tenant, agentId) => {
  // The assistant was found in the tenant's workspace before a version is written, and a link is
  // only ever written between two records of one workspace.
  const rows = await db
    .select({ id: agentMcpServers.mcpServerId })
    .from(agentMcpServers)
    .where(eq(agentMcpServers.agentId, agentId))
    .orderBy(asc(agentMcpServers.mcpServerId));
  return { mcp_server_ids: rows.map((row) => row.id) };
};
