import { and, eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgColumn, PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "./service.ts";

/** A table of links between assistants and one kind of the workspace's records (see link-table.ts). */
type LinkTable<K extends string> = PgTable & { agentId: PgColumn } & { [P in K]: PgColumn };

type RequireTarget = (db: Executor, tenant: TenantScope, id: string) => Promise<unknown>;

/** The workspace-owned table of the linked records (functions, MCP servers, documents). */
type TargetTable = PgTable & { id: AnyPgColumn; workspaceId: AnyPgColumn };

/**
 * Linking and unlinking an assistant and a record (a function, an MCP server, a document): both
 * must belong to the tenant's workspace (404 otherwise, the assistant checked first); linking twice
 * changes nothing, nor does unlinking what is not linked.
 */
export function assistantLinks<K extends string, T extends LinkTable<K>, R extends TargetTable>(
  table: T,
  targetKey: K,
  target: R,
  requireTarget: RequireTarget,
) {
  const requireBoth = async (db: Executor, tenant: TenantScope, agentId: string, targetId: string) => {
    await requireAgent(db, tenant, agentId);
    await requireTarget(db, tenant, targetId);
  };
  return {
    /** The tenant's records linked to the assistant, in the given order. */
    async linkedTo(
      db: Executor,
      tenant: TenantScope,
      agentId: string,
      orderBy: (SQL | AnyPgColumn)[],
    ): Promise<R["$inferSelect"][]> {
      const rows = await db
        .select({ record: target as TargetTable })
        .from(table as PgTable)
        .innerJoin(target as TargetTable, eq(target.id, table[targetKey]))
        .where(scoped(target, tenant).where(eq(table.agentId, agentId)))
        .orderBy(...orderBy);
      // drizzle cannot infer a selection from a table type parameter; the record is the target's own row.
      return rows.map((r) => r.record as R["$inferSelect"]);
    },
    async link(db: Executor, tenant: TenantScope, agentId: string, targetId: string): Promise<void> {
      await requireBoth(db, tenant, agentId, targetId);
      // drizzle cannot check a row whose key is computed; the table has exactly these two id columns.
      const row = { agentId, [targetKey]: targetId } as PgInsertValue<T>;
      await db.insert(table).values(row).onConflictDoNothing();
    },
    async unlink(db: Executor, tenant: TenantScope, agentId: string, targetId: string): Promise<void> {
      await requireBoth(db, tenant, agentId, targetId);
      await db.delete(table).where(and(eq(table.agentId, agentId), eq(table[targetKey], targetId)));
    },
  };
}
