import { count, desc, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client.ts";

/** Newest first, ties broken by id so that consecutive pages neither repeat nor skip a row. */
export const newestFirst = (table: { createdAt: AnyPgColumn; id: AnyPgColumn }) => [
  desc(table.createdAt),
  desc(table.id),
];

/** A numbered page as list endpoints take it (`?page=&items_per_page=`). */
export interface PageQuery {
  page: number;
  items_per_page: number;
}

/** Which rows a page covers. */
export interface RowWindow {
  offset: number;
  limit: number;
}

export const pageWindow = (q: PageQuery): RowWindow => ({
  offset: (q.page - 1) * q.items_per_page,
  limit: q.items_per_page,
});

/** The paged response every numbered list answers with. */
export function pageOf<T>(data: T[], totalCount: number, q: PageQuery) {
  return {
    data,
    total_count: totalCount,
    page: q.page,
    items_per_page: q.items_per_page,
    pages: Math.ceil(totalCount / q.items_per_page),
  };
}

/**
 * One window of a table's rows matching `where`, and how many match in all. The caller builds
 * `where`, so a workspace-owned table is filtered with `scoped(table, tenant)` at the call site.
 */
export async function pagedRows<T extends PgTable>(
  db: Executor,
  table: T,
  where: SQL | undefined,
  orderBy: (SQL | AnyPgColumn)[],
  window: RowWindow,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const [counted] = await db
    .select({ n: count() })
    .from(table as PgTable)
    .where(where);
  // drizzle cannot infer a selection from a table type parameter; the row is the table's own.
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)
    .limit(window.limit)
    .offset(window.offset)) as T["$inferSelect"][];
  return { rows, total: Number(counted?.n ?? 0) };
}
