import type { ApiKeyScope } from "@parley/contract";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../../lib/table-columns.ts";
import { users } from "../users/schema.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Workspace API keys. Only the SHA-256 of the secret is kept (`secret_hash`, looked up by its
 * unique index); `prefix` is its visible start. A key acts as its creator: deleting the account
 * deletes its keys.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: jsonb("scopes").$type<ApiKeyScope[]>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    lastUsedIp: text("last_used_ip"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_idx").on(t.secretHash), index("api_keys_workspace_idx").on(t.workspaceId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
