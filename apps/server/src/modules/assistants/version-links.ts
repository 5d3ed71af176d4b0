import type { VersionLinks } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/**
 * What a version records besides the assistant's fields: its functions, tool servers and documents
 * (link tables of other modules) and its workflow's published version. Those modules import this
 * one, so each registers a reader from its route plugin (as save-checks.ts does) instead of being
 * imported here; a version records what the registered readers return at publish time.
 */
export type VersionLinkReader = (db: Executor, tenant: TenantScope, agentId: string) => Promise<Partial<VersionLinks>>;

const readers = new Set<VersionLinkReader>();

/** Adds a reader (once, however many apps a process builds). */
export function addVersionLinkReader(reader: VersionLinkReader): void {
  readers.add(reader);
}

export async function readVersionLinks(db: Executor, tenant: TenantScope, agentId: string): Promise<VersionLinks> {
  const parts = await Promise.all([...readers].map((read) => read(db, tenant, agentId)));
  return Object.assign({}, ...parts);
}
