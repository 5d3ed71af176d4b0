// Phone-number lookups that cross workspaces on purpose. Each runs before any workspace is known:
// a carrier's webhook, a SIP INVITE or REGISTER, or the SIP module's start-up carry a number or a
// SIP identity and no user or API key, so the number itself says which workspace the call is for
// (the callers then check a signature, a trunk's addresses or a digest before trusting it).

import type { PhoneProvider } from "@parley/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type PhoneNumberRecord, phoneNumbers } from "./schema.ts";

/** Every SIP trunk number of every workspace (the SIP module keeps their carrier registrations). */
export async function listSipTrunkNumbers(db: Executor): Promise<PhoneNumberRecord[]> {
  return db.select().from(phoneNumbers).where(eq(phoneNumbers.provider, "sip_trunk")).orderBy(phoneNumbers.createdAt);
}

/**
 * Every workspace's record of this number at this provider. A webhook carries no user, and two
 * workspaces may hold the same number: the caller keeps the one whose credentials verify the
 * webhook's signature.
 */
export async function findInboundNumbers(
  db: Executor,
  provider: PhoneProvider,
  e164: string,
): Promise<PhoneNumberRecord[]> {
  return db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.provider, provider), eq(phoneNumbers.number, e164)))
    .orderBy(phoneNumbers.createdAt);
}

/** An extension by its SIP identity, with its digest HA1, for the registrar; undefined when none. */
export async function findExtension(
  db: Executor,
  username: string,
  domain: string,
): Promise<PhoneNumberRecord | undefined> {
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(
      and(
        eq(phoneNumbers.provider, "extension"),
        eq(phoneNumbers.sipUsername, username),
        eq(phoneNumbers.extensionDomain, domain.toLowerCase()),
      ),
    );
  return row;
}

/**
 * The numbers an INVITE for `number` may reach, across workspaces: trunk numbers and extensions
 * (the SIP kinds), oldest first. The SIP layer picks the one whose trunk or domain the INVITE
 * came through (allowed_ips, the request URI's domain).
 */
export async function findNumberByAnyProvider(db: Executor, number: string): Promise<PhoneNumberRecord[]> {
  return db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.number, number), inArray(phoneNumbers.provider, ["sip_trunk", "extension"])))
    .orderBy(phoneNumbers.createdAt);
}
