import { requireAgent } from "../assistants/service.ts";
import type { VersionLinkReader } from "../assistants/version-links.ts";
import { loadPublishedWorkflow } from "./published.ts";

/**
 * The workflow version an assistant's new version records: the published version of the workflow
 * its configuration names (null with no workflow, or one never published). Registered by the
 * workflows routes.
 */
export const workflowVersionLinks: VersionLinkReader = async (db, tenant, agentId) => {
  const agent = await requireAgent(db, tenant, agentId);
  const published = await loadPublishedWorkflow(db, tenant, agent.config);
  return { workflow_version: published?.version ?? null };
};
