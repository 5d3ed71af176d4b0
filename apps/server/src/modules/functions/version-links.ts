import { asc, eq } from "drizzle-orm";
import type { VersionLinkReader } from "../assistants/version-links.ts";
import { agentFunctions } from "./schema.ts";

/** The functions an assistant's new version records (sorted ids), registered by the functions routes. */
export const functionVersionLinks: VersionLinkReader = async (db, _tenant, agentId) => {
  // The assistant was found in the tenant's workspace before a version is written, and a link is
  // only ever written between two records of one workspace.
  const rows = await db
    .select({ id: agentFunctions.functionId })
    .from(agentFunctions)
    .where(eq(agentFunctions.agentId, agentId))
    .orderBy(asc(agentFunctions.functionId));
  return { function_ids: rows.map((row) => row.id) };
};
