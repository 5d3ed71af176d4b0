import { asc, eq } from "drizzle-orm";
import type { VersionLinkReader } from "../assistants/version-links.ts";
import { documentAgents } from "./schema.ts";

/** The documents an assistant's new version records (sorted ids), registered by the documents routes. */
export const documentVersionLinks: VersionLinkReader = async (db, _tenant, agentId) => {
  // The assistant was found in the tenant's workspace before a version is written, and a link is
  // only ever written between two records of one workspace.
  const rows = await db
    .select({ id: documentAgents.documentId })
    .from(documentAgents)
    .where(eq(documentAgents.agentId, agentId))
    .orderBy(asc(documentAgents.documentId));
  return { document_ids: rows.map((row) => row.id) };
};
