import { createHash } from "node:crypto";
import { PHONE_NUMBER_TEXTS, type PhoneNumber } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { newestFirst } from "../../lib/paging.ts";
import { deleteRow, listRows, requireRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { sqlStateOf } from "../../lib/unique-violation.ts";
import { listAssistants } from "../assistants/service.ts";
import { listSquads } from "../squads/service.ts";
import { type NewPhoneNumber, type PhoneNumberRecord, phoneNumbers } from "./schema.ts";

export type { NewPhoneNumber, PhoneNumberRecord };

const NOT_FOUND_TEXT = "Phone number not found.";

/** SQLSTATEs of a transaction that lost a race (serialization failure, deadlock, lock timeout): retryable, so 503. */
const BUSY_STATES = new Set(["40001", "40P01", "55P03"]);

/** The name of the unique index a violation broke, from the driver's error or its message. */
function violatedIndex(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth += 1) {
    if ("constraint" in e && typeof e.constraint === "string") return e.constraint;
    if ("message" in e && typeof e.message === "string" && e.message.includes("phone_numbers_extension_idx")) {
      return "phone_numbers_extension_idx";
    }
    e = "cause" in e ? e.cause : undefined;
  }
  return "";
}

/**
 * The database's answer in the words of spec §8: a number already in the workspace (or an
 * extension already taken in its domain) is a 409, a lost race a 503; anything else is rethrown.
 */
export function phoneNumberDbError(error: unknown, values: Pick<NewPhoneNumber, "extension">): unknown {
  const state = sqlStateOf(error);
  if (state === "23505") {
    return violatedIndex(error) === "phone_numbers_extension_idx"
      ? new AppError("conflict", PHONE_NUMBER_TEXTS.extensionExists(values.extension ?? ""))
      : new AppError("conflict", PHONE_NUMBER_TEXTS.duplicate);
  }
  if (state && BUSY_STATES.has(state)) return new AppError("unavailable", PHONE_NUMBER_TEXTS.busy);
  return error;
}

/** Stores a number for the workspace; the unique indexes decide duplicates (409) even under a race. */
export async function insertPhoneNumber(
  db: Executor,
  tenant: TenantScope,
  values: NewPhoneNumber,
): Promise<PhoneNumberRecord> {
  let row: PhoneNumberRecord | undefined;
  try {
    [row] = await db.insert(phoneNumbers).values(scoped(phoneNumbers, tenant).values(values)).returning();
  } catch (error) {
    throw phoneNumberDbError(error, values);
  }
  if (!row) throw new Error("insert into phone_numbers returned no row");
  return row;
}

/** True when the workspace already holds this number (checked before a vendor is asked to configure it). */
export async function hasPhoneNumber(db: Executor, tenant: TenantScope, number: string): Promise<boolean> {
  const [row] = await db
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(scoped(phoneNumbers, tenant).where(eq(phoneNumbers.number, number)));
  return row !== undefined;
}

/** A number of the tenant's workspace, else 404 (another workspace's number included). */
export async function requirePhoneNumber(db: Executor, tenant: TenantScope, id: string): Promise<PhoneNumberRecord> {
  return requireRow(db, phoneNumbers, tenant, id, NOT_FOUND_TEXT);
}

/** The workspace's numbers, newest first. */
export async function listPhoneNumbers(db: Executor, tenant: TenantScope): Promise<PhoneNumberRecord[]> {
  return listRows(db, phoneNumbers, tenant, newestFirst(phoneNumbers));
}

export type PhoneNumberChanges = Partial<
  Pick<
    NewPhoneNumber,
    "friendlyName" | "agentId" | "outboundAgentId" | "squadId" | "sipTrunk" | "sipPassword" | "integrationId"
  >
>;

export async function updatePhoneNumber(
  db: Executor,
  record: PhoneNumberRecord,
  changes: PhoneNumberChanges,
  now: Date,
): Promise<PhoneNumberRecord> {
  let row: PhoneNumberRecord | undefined;
  try {
    [row] = await db
      .update(phoneNumbers)
      .set({ ...changes, updatedAt: now })
      .where(scoped(phoneNumbers, record).where(eq(phoneNumbers.id, record.id)))
      .returning();
  } catch (error) {
    throw phoneNumberDbError(error, record);
  }
  return found(row, NOT_FOUND_TEXT);
}

/**
 * Deletes a number. A call in progress on it keeps running (its call log holds the number as
 * text); the number just stops answering new calls.
 */
export async function deletePhoneNumber(db: Executor, tenant: TenantScope, id: string): Promise<PhoneNumberRecord> {
  return deleteRow(db, phoneNumbers, tenant, id, NOT_FOUND_TEXT);
}

/** Names of the workspace's assistants and squads by id, for the list and detail responses. */
export async function assistantNames(db: Executor, tenant: TenantScope): Promise<ReadonlyMap<string, string>> {
  const [assistants, squads] = await Promise.all([listAssistants(db, tenant), listSquads(db, tenant)]);
  return new Map([...assistants, ...squads].map((a) => [a.id, a.name]));
}

/** The API shape of a stored number: no secret leaves, only whether a trunk password is set. */
export function toPhoneNumber(record: PhoneNumberRecord, names: ReadonlyMap<string, string>): PhoneNumber {
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  return {
    id: record.id,
    friendly_name: record.friendlyName,
    number: record.number,
    country: record.country,
    provider: record.provider,
    agent_id: record.agentId,
    outbound_agent_id: record.outboundAgentId,
    agent_name: nameOf(record.agentId),
    outbound_agent_name: nameOf(record.outboundAgentId),
    squad_id: record.squadId,
    squad_name: nameOf(record.squadId),
    integration_id: record.integrationId,
    provider_number_id: record.providerNumberId,
    sip_trunk: record.sipTrunk ? { ...record.sipTrunk, has_password: record.sipPassword !== null } : null,
    extension:
      record.extension !== null && record.extensionDomain !== null
        ? { ext: record.extension, domain: record.extensionDomain, username: record.sipUsername ?? record.extension }
        : null,
    whatsapp:
      record.whatsappPhoneNumberId !== null && record.whatsappBusinessAccountId !== null
        ? { phone_number_id: record.whatsappPhoneNumberId, business_account_id: record.whatsappBusinessAccountId }
        : null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

// Lookups without a user (webhooks, SIP) cross workspaces; they live in their own file.
export {
  findExtension,
  findInboundNumbers,
  findNumberByAnyProvider,
  listSipTrunkNumbers,
} from "./lookups-across-workspaces.ts";

// ── secrets ─────────────────────────────────────────────────────────────────

export interface PhoneNumberSecrets {
  sipPassword?: string;
  whatsappAccessToken?: string;
  whatsappAppSecret?: string;
}

/** The record's sealed secrets, opened (for the SIP user agent and the messaging client only; never logged). */
export function decryptSecrets(ctx: Pick<AppContext, "secrets">, record: PhoneNumberRecord): PhoneNumberSecrets {
  const secrets: PhoneNumberSecrets = {};
  if (record.sipPassword) secrets.sipPassword = ctx.secrets.decrypt(record.sipPassword);
  if (record.whatsappAccessToken) secrets.whatsappAccessToken = ctx.secrets.decrypt(record.whatsappAccessToken);
  if (record.whatsappAppSecret) secrets.whatsappAppSecret = ctx.secrets.decrypt(record.whatsappAppSecret);
  return secrets;
}

/** RFC 2617 HA1 = MD5(username:realm:password); Parley's realm for an extension is its domain. */
export function digestHa1(username: string, domain: string, password: string): string {
  return createHash("md5").update(`${username}:${domain}:${password}`).digest("hex");
}

export { webhookUrlsFor } from "./webhook-urls.ts";
