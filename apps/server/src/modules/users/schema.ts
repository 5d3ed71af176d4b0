import { sql } from "drizzle-orm";
import { boolean, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps, updatedAt, uuidPrimaryKey } from "../../lib/table-columns.ts";

export const users = pgTable(
  "users",
  {
    id: uuidPrimaryKey(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    name: text("name").notNull(),
    /** argon2id hash; null for accounts that only sign in by magic link or SSO. */
    passwordHash: text("password_hash"),
    isSuperuser: boolean("is_superuser").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    tierId: uuid("tier_id"),
    ssoProvider: text("sso_provider"),
    profileImageUrl: text("profile_image_url"),
    /**
     * Access tokens issued before this second are refused: a password change or reset ends the other
     * sessions at once, not when their short-lived tokens expire. Null: no such cut-off yet.
     */
    sessionsValidFrom: timestamp("sessions_valid_from", { withTimezone: true }),
    /** Workspace the user last switched to; tokens minted by refresh use it. */
    currentWorkspaceId: uuid("current_workspace_id"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    index("users_tier_idx").on(t.tierId),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** Plans: a user's tier, or an enterprise quota that overrides it, sets their limits. */

export const tiers = pgTable("tiers", {
  id: uuidPrimaryKey(),
  name: text("name").notNull().unique(),
  description: text("description"),
  maxAssistants: integer("max_assistants").notNull(),
  minutesPerMonth: integer("minutes_per_month").notNull(),
  concurrentCalls: integer("concurrent_calls").notNull(),
  maxWorkspaces: integer("max_workspaces").notNull(),
  /** Monthly price in the platform currency (USD), two decimals. */
  price: numeric("price", { precision: 10, scale: 2 }).notNull(),
  ...timestamps(),
});

/** Per-user limits that override the tier's; their presence makes a user "enterprise". */
export const enterpriseQuotas = pgTable("enterprise_quotas", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  maxAssistants: integer("max_assistants").notNull(),
  minutesPerMonth: integer("minutes_per_month").notNull(),
  concurrentCalls: integer("concurrent_calls").notNull(),
  maxWorkspaces: integer("max_workspaces").notNull(),
  updatedAt: updatedAt(),
});
