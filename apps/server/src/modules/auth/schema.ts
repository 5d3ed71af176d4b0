import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, uuidPrimaryKey } from "../../lib/table-columns.ts";
import { users } from "../users/schema.ts";

/** Rotating refresh tokens, stored as SHA-256 hashes; one family per sign-in. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: uuidPrimaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: uuid("family_id").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when this token was exchanged for its successor. */
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The account's session generation when issued: an older one cannot be exchanged (users.schema). */
    sessionGeneration: integer("session_generation").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("refresh_tokens_family_idx").on(t.familyId), index("refresh_tokens_user_idx").on(t.userId)],
);

/**
 * One-time email tokens: magic-link sign-in/sign-up, password reset, and confirming a new email
 * address (email is the new address, userId the account asking for it).
 */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: uuidPrimaryKey(),
    purpose: text("purpose", { enum: ["magic_link", "password_reset", "email_change"] }).notNull(),
    email: text("email").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("email_tokens_email_idx").on(t.email)],
);

/** Links an OIDC subject at an issuer to a user. */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    id: uuidPrimaryKey(),
    provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
    subject: text("subject").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("sso_identities_user_idx").on(t.userId),
    uniqueIndex("sso_identities_subject_idx").on(t.provider, t.subject),
  ],
);

/**
 * Short-lived state of an SSO flow: the PKCE verifier, and after the callback a pending sign-up.
 * A flow started from a signed-in user's profile to link an identity carries that user's id, so
 * the callback can only ever link to the account that asked.
 */
export const ssoStates = pgTable("sso_states", {
  id: text("id").primaryKey(),
  provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
  codeVerifier: text("code_verifier").notNull(),
  nonce: text("nonce").notNull(),
  linkUserId: uuid("link_user_id").references(() => users.id, { onDelete: "cascade" }),
  /** Verified identity waiting for POST /sso/signup (sign-up ticket). */
  subject: text("subject"),
  email: text("email"),
  name: text("name"),
  /** Whether the provider vouched for the ticket's email (then its invitations are accepted). */
  emailVerified: boolean("email_verified").notNull().default(false),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** Fixed-window counters shared by every server process (login and magic-link limits). */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
});
