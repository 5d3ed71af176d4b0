import type { PhoneProvider, SipTrunkSettings } from "@parley/contract";
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { agents } from "../assistants/schema.ts";
import { integrations } from "../integrations/schema.ts";
import { squads } from "../squads/schema.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** A trunk's settings as stored: the password lives sealed in its own column, never in the JSON. */
export type StoredSipTrunk = Omit<SipTrunkSettings, "password">;

/**
 * Numbers a workspace answers and dials from (spec §3 "Phone number"). One table for every kind of
 * number: the provider says which group of columns is filled (vendor number, SIP trunk, extension,
 * messaging number). Secrets (trunk password, messaging access token and app secret) are sealed by SecretBox.
 */
export const phoneNumbers = pgTable(
  "phone_numbers",
  {
    ...workspaceRecordKey(),
    /** E.164; an extension's number is the extension itself ("1001"). */
    number: text("number").notNull(),
    friendlyName: text("friendly_name").notNull().default(""),
    country: text("country"),
    provider: text("provider").$type<PhoneProvider>().notNull(),
    /** Inbound assistant; a deleted assistant leaves the number unassigned. */
    agentId: uuid("agent_id").references(() => agents.id, { onDelete: "set null" }),
    outboundAgentId: uuid("outbound_agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** Inbound squad instead of an assistant (issue 31): the call starts at its first member. */
    squadId: uuid("squad_id").references(() => squads.id, { onDelete: "set null" }),
    integrationId: uuid("integration_id").references(() => integrations.id, { onDelete: "set null" }),
    providerNumberId: text("provider_number_id"),

    sipTrunk: jsonb("sip_trunk").$type<StoredSipTrunk>(),
    sipPassword: text("sip_password"),

    extension: text("extension"),
    extensionDomain: text("extension_domain"),
    sipUsername: text("sip_username"),
    /** MD5(username:domain:password): the registrar checks digest responses without the password (realm = domain). */
    sipHa1: text("sip_ha1"),

    whatsappPhoneNumberId: text("whatsapp_phone_number_id"),
    whatsappBusinessAccountId: text("whatsapp_business_account_id"),
    whatsappAccessToken: text("whatsapp_access_token"),
    whatsappAppSecret: text("whatsapp_app_secret"),
    whatsappVerifyToken: text("whatsapp_verify_token"),

    ...timestamps(),
  },
  (t) => [
    uniqueIndex("phone_numbers_workspace_number_idx").on(t.workspaceId, t.number),
    // A SIP identity is global: two workspaces cannot both own 1001@sip.example.com.
    uniqueIndex("phone_numbers_extension_idx")
      .on(t.extensionDomain, t.extension)
      .where(sql`${t.provider} = 'extension'`),
    // Webhooks and INVITEs look numbers up by number across workspaces.
    index("phone_numbers_number_idx").on(t.number),
  ],
);

export type PhoneNumberRecord = typeof phoneNumbers.$inferSelect;
export type NewPhoneNumber = Omit<typeof phoneNumbers.$inferInsert, "id" | "workspaceId" | "createdAt" | "updatedAt">;
