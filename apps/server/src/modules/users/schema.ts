import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
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
    /** Workspace the user last switched to; tokens minted by refresh use it. */
    currentWorkspaceId: uuid("current_workspace_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    index("users_tier_idx").on(t.tierId),
  ],
);

export type UserRow = typeof users.$inferSelect;
