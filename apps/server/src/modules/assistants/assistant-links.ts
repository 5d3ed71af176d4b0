import { and, eq } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "./service.ts";

/** A table of links between assistants and one kind of the workspace's records (see link-table.ts). */
interface LinkTable<T extends PgTable> {
  table: T;
  agentColumn: PgColumn;
  targetColumn: PgColumn;
  row: (agentId: string, targetId: string) => PgInsertValue<T>;
}

type RequireTarget = (db: Executor, tenant: TenantScope, id: string) => Promise<unknown>;

/**
 * Linking and unlinking an assistant and a record (a function, an MCP server, a document): both
 * must belong to the tenant's workspace (404 otherwise, the assistant checked first); linking twice
 * changes nothing, nor does unlinking what is not linked.
 */
export function assistantLinks<T extends PgTable>(links: LinkTable<T>, requireTarget: RequireTarget) {
  const requireBoth = async (db: Executor, tenant: TenantScope, agentId: string, targetId: string) => {
    await requireAgent(db, tenant, agentId);
    await requireTarget(db, tenant, targetId);
  };
  return {
    async link(db: Executor, tenant: TenantScope, agentId: string, targetId: string): Promise<void> {
      await requireBoth(db, tenant, agentId, targetId);
      await db.insert(links.table).values(links.row(agentId, targetId)).onConflictDoNothing();
    },
    async unlink(db: Executor, tenant: TenantScope, agentId: string, targetId: string): Promise<void> {
      await requireBoth(db, tenant, agentId, targetId);
      await db.delete(links.table).where(and(eq(links.agentColumn, agentId), eq(links.targetColumn, targetId)));
    },
  };
}
