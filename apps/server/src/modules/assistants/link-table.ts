import { type AnyPgColumn, index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../../lib/table-columns.ts";
import { agents } from "./schema.ts";

const cascadingReference = (column: string, target: () => AnyPgColumn) =>
  uuid(column).notNull().references(target, { onDelete: "cascade" });
type CascadingReference = ReturnType<typeof cascadingReference>;

interface LinkTarget<K extends string> {
  /** The property naming the linked record's id, e.g. `functionId`. */
  key: K;
  /** Its SQL column, e.g. `function_id`. */
  column: string;
  references: () => AnyPgColumn;
  /** The name of the index on the linked record's id, for "which assistants use this" lookups. */
  index: string;
}

/**
 * A table that links assistants to one kind of the workspace's records (functions, MCP servers): one
 * row per pair, keyed by both ids, gone when either side is deleted. It has no workspace column: both
 * sides are checked to be the tenant's before a link is written.
 */
export function assistantLinkTable<N extends string, K extends string>(name: N, target: LinkTarget<K>) {
  const targetColumn = { [target.key]: cascadingReference(target.column, target.references) } as Record<
    K,
    CascadingReference
  >;
  return pgTable(
    name,
    { agentId: cascadingReference("agent_id", () => agents.id), ...targetColumn, createdAt: createdAt() },
    (t) => [primaryKey({ columns: [t.agentId, t[target.key]] }), index(target.index).on(t[target.key])],
  );
}
