import { uuid } from "drizzle-orm/pg-core";
import { uuidPrimaryKey } from "../../lib/table-columns.ts";
import { workspaces } from "./schema.ts";

/**
 * The workspace a row belongs to; deleting the workspace deletes the row. Every table with this
 * column is read and written through `scoped(table, tenant)` (lib/tenant-scope.ts).
 */
export const workspaceIdColumn = () =>
  uuid("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" });

/** `id` and `workspace_id`, the first two columns of a workspace's own records. */
export const workspaceRecordKey = () => ({ id: uuidPrimaryKey(), workspaceId: workspaceIdColumn() });
