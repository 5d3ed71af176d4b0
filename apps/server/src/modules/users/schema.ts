import { sql } from "drizzle-orm";
import { boolean, index, integer, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
     * False when the address came from an identity provider that did not vouch for it (accounts
     * created that way before sign-up refused such addresses): the account does not own the
     * address, so no emailed link signs into it, no other sign-in merges into it and no invitation
     * to the address joins it, until the provider vouches for it or its owner confirms an address.
     */
    emailVerified: boolean("email_verified").notNull().default(true),
    /**
     * Bumped when a password change or reset ends the sessions: access and refresh tokens carry the
     * generation they were issued in and one from an older generation is refused at once (a counter,
     * not a time, so a token minted in the same second as the change is cut too).
     */
    sessionGeneration: integer("session_generation").notNull().default(0),
    /** The session (refresh-token family) that made the last cut and stays signed in across it. */
    keptSessionId: uuid("kept_session_id"),
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

/**
 * Per-user limits an admin set by hand: an explicit override that wins over the tier's limits, even
 * across tier edits and tier changes, until removed. Their presence makes a user "enterprise".
 * Assigning a tier never writes here (the tier's limits are read live).
 */
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
