import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * Where SIP phones are registered (RFC 3261 §10): one row per Contact bound to an extension's
 * identity, written by whichever process took the REGISTER, so the status route and call routing
 * work from any process on the same database. A row past `expires_at` is no registration.
 */
export const sipRegistrations = pgTable(
  "sip_registrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    /** Lower-case SIP domain (the digest realm). */
    domain: text("domain").notNull(),
    /** The Contact URI the phone registered. */
    contact: text("contact").notNull(),
    /** Where the REGISTER came from ("udp" | "tcp", address, port): INVITEs for the phone go there (NAT). */
    transport: text("transport").notNull(),
    sourceAddress: text("source_address").notNull(),
    sourcePort: integer("source_port").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The server process that holds the phone's connection (a TCP registration is reachable only there). */
    processId: text("process_id").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("sip_registrations_binding_idx").on(t.username, t.domain, t.contact),
    index("sip_registrations_expires_idx").on(t.expiresAt),
  ],
);

/**
 * SIP calls in progress on an extension (status RUNNING), every process's. A row is removed when
 * its call ends; rows of a process that died are ignored once older than the longest call.
 */
export const sipActiveCalls = pgTable(
  "sip_active_calls",
  {
    callId: uuid("call_id").primaryKey(),
    username: text("username").notNull(),
    domain: text("domain").notNull(),
    processId: text("process_id").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sip_active_calls_identity_idx").on(t.username, t.domain)],
);

export type SipRegistrationRow = typeof sipRegistrations.$inferSelect;
