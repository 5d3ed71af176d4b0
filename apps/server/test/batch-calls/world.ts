import type { BatchCall, BatchContact, BatchContactPage } from "@parley/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { batchCalls } from "../../src/modules/batch-calls/schema.ts";
import { insertPhoneNumber } from "../../src/modules/phone-numbers/service.ts";
import { call, createTestApp, signedInUser, type TestApp } from "../harness.ts";
import { createAssistant } from "../support/calls.ts";

export const FROM_NUMBER = "+14155550100";

/** A signed-in workspace with an assistant and an outbound number, its concurrency limit raised. */
export async function campaignWorld(t: TestApp, options: { concurrencyLimit?: number; number?: string } = {}) {
  const user = await signedInUser(t);
  const patched = await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
    token: user.token,
    body: { concurrency_limit: options.concurrencyLimit ?? 50 },
  });
  if (patched.statusCode !== 200) throw new Error(`raising the limit failed: ${patched.body}`);
  const agentId = await createAssistant(t, user.token, {});
  const number = await insertPhoneNumber(
    t.ctx.db,
    { workspaceId: user.workspaceId },
    { number: options.number ?? FROM_NUMBER, provider: "twilio", agentId, outboundAgentId: agentId },
  );
  const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown) =>
    call(t, method, `/api/v1${url}`, { token: user.token, body });
  return { user, agentId, phoneNumberId: number.id, api };
}

export type CampaignWorld = Awaited<ReturnType<typeof campaignWorld>>;

/**
 * For one test file: a test app and its campaign world (campaignWorld), made before the file's tests;
 * the app is closed after them. Read `world.t` and the world's fields inside the tests.
 */
export function useCampaignWorld(options: Parameters<typeof campaignWorld>[1] = {}): CampaignWorld & { t: TestApp } {
  const world = {} as CampaignWorld & { t: TestApp };
  beforeAll(async () => {
    const t = await createTestApp();
    Object.assign(world, await campaignWorld(t, options), { t });
  });
  afterAll(async () => world.t?.close());
  return world;
}

/** Numbers +1 415 555 2xxx … (possible US numbers), `count` of them. */
export function numbers(count: number, start = 0): string[] {
  return Array.from({ length: count }, (_, i) => `+1415${String(2_000_000 + start + i).padStart(7, "0")}`);
}

/**
 * Gives a campaign `count` pending contacts numbered as `numbers(count)` gives them, written by the
 * database in one statement: through the API, 50,000 contacts cost tens of seconds on a busy machine.
 */
export async function seedContacts(world: CampaignWorld & { t: TestApp }, batchCallId: string, count: number) {
  await world.t.ctx.db.execute(sql`
    insert into batch_call_contacts (workspace_id, batch_call_id, position, number)
    select ${world.user.workspaceId}::uuid, ${batchCallId}::uuid, g, '+1415' || (2000000 + g - 1)::text
    from generate_series(1, ${count}::int) g`);
}

export async function createCampaign(
  world: Pick<CampaignWorld, "api" | "phoneNumberId">,
  body: Record<string, unknown>,
): Promise<BatchCall> {
  const res = await world.api("POST", "/batch-calls", {
    name: "Spring reminders",
    from_phone_number_id: world.phoneNumberId,
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json<BatchCall>();
}

/** GET /batch-calls/{id} as it answers: the campaign, its progress and its first page of contacts. */
export async function readCampaign(world: Pick<CampaignWorld, "api">, id: string): Promise<BatchCall> {
  const res = await world.api("GET", `/batch-calls/${id}`);
  if (res.statusCode !== 200) throw new Error(`get failed: ${res.statusCode} ${res.body}`);
  return res.json<BatchCall>();
}

/** Every contact of a campaign, in order, read page by page from GET /batch-calls/{id}/contacts. */
export async function allContacts(world: Pick<CampaignWorld, "api">, id: string): Promise<BatchContact[]> {
  const contacts: BatchContact[] = [];
  for (let page = 1; ; page += 1) {
    const res = await world.api("GET", `/batch-calls/${id}/contacts?page=${page}&items_per_page=500`);
    if (res.statusCode !== 200) throw new Error(`contacts failed: ${res.statusCode} ${res.body}`);
    const answer = res.json<BatchContactPage>();
    contacts.push(...answer.data);
    if (page >= answer.pages) return contacts;
  }
}

/** The campaign with every one of its contacts in phone_numbers (the read alone holds the first page). */
export async function getCampaign(world: Pick<CampaignWorld, "api">, id: string): Promise<BatchCall> {
  const campaign = await readCampaign(world, id);
  return { ...campaign, phone_numbers: await allContacts(world, id) };
}

/** Polls until `check` holds (no fixed sleeps: the runner works on its own time). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function initiate(world: CampaignWorld, id: string) {
  return world.api("POST", `/initiate_batch_call?batch_call_id=${id}`);
}

/** Waits for the campaign to reach a final status, reading only its row (a full GET is heavy at 1,000 contacts), then GETs it. */
export async function finishedCampaign(
  t: TestApp,
  world: Pick<CampaignWorld, "api">,
  id: string,
  timeoutMs = 200_000,
): Promise<BatchCall> {
  await eventually(
    async () =>
      (await t.ctx.db.select({ status: batchCalls.status }).from(batchCalls).where(eq(batchCalls.id, id)))[0]?.status,
    (status) => status !== undefined && ["completed", "failed", "partial", "cancelled"].includes(status),
    "the campaign to finish",
    timeoutMs,
  );
  return getCampaign(world, id);
}
