import { eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client.ts";
import { found, scoped, type TenantScope } from "./tenant-scope.ts";

/** A workspace-owned table whose rows are addressed by an `id` column. */
type ScopedTable = PgTable & { id: AnyPgColumn; workspaceId: AnyPgColumn };

/** All the tenant's rows of the table, in the given order. */
export async function listRows<T extends ScopedTable>(
  db: Executor,
  table: T,
  tenant: TenantScope,
  orderBy: (SQL | AnyPgColumn)[],
): Promise<T["$inferSelect"][]> {
  // drizzle cannot infer a selection from a table type parameter; the rows are the table's own.
  return (await db
    .select()
    .from(table as PgTable)
    .where(scoped(table, tenant).where())
    .orderBy(...orderBy)) as T["$inferSelect"][];
}

/** The tenant's row with that id, or undefined when it is missing or another workspace's. */
export async function findRow<T extends ScopedTable>(
  db: Executor,
  table: T,
  tenant: TenantScope,
  id: string,
): Promise<T["$inferSelect"] | undefined> {
  // drizzle cannot infer a selection from a table type parameter; the row is the table's own.
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(scoped(table, tenant).where(eq(table.id, id)))) as T["$inferSelect"][];
  return rows[0];
}

/** An action on the tenant's row with that id that answers the row; a miss is a 404 with `notFoundText`. */
type RowById = <T extends ScopedTable>(
  db: Executor,
  table: T,
  tenant: TenantScope,
  id: string,
  notFoundText: string,
) => Promise<T["$inferSelect"]>;

/** The tenant's row with that id. */
export const requireRow: RowById = async (db, table, tenant, id, notFoundText) =>
  found(await findRow(db, table, tenant, id), notFoundText);

/** Deletes the tenant's row with that id and returns it. */
export const deleteRow: RowById = async (db, table, tenant, id, notFoundText) => {
  const rows = await db
    .delete(table as PgTable)
    .where(scoped(table, tenant).where(eq(table.id, id)))
    .returning();
  return found(rows[0], notFoundText);
};
