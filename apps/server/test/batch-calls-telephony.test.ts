import { randomBytes } from "node:crypto";
import type { BatchCall, CallLogPage } from "@parley/contract";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertQuota } from "../src/modules/admin/quotas-service.ts";
import { createCampaign, eventually, finishedCampaign, numbers } from "./batch-calls/world.ts";
import { call, claimsOf } from "./harness.ts";
import { type BridgeWorld, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * A campaign end to end through the telephony module and the local Twilio double: every call is a
 * real placed call with its status callbacks, logged with the batch id, at most `concurrency` up at
 * once at the carrier, retried as the policy says, each number placed exactly once per attempt.
 */

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550100";

let double: Awaited<ReturnType<typeof startTwilioDouble>>;
let world: BridgeWorld;

beforeAll(async () => {
  double = await startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] });
  world = await startBridgeWorld({
    provider: "twilio",
    credentials: (origin) => ({ account_sid: SID, auth_token: TOKEN, base_url: origin }),
    doubleOrigin: double.origin,
    number: NUMBER,
  });
  const patched = await call(world.t, "PATCH", `/api/v1/workspaces/${world.workspaceId}`, {
    token: world.token,
    body: { concurrency_limit: 20 },
  });
  expect(patched.statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await world?.close();
  await double?.close();
});

const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown) =>
  call(world.t, method, `/api/v1${url}`, { token: world.token, body });

/** A campaign from the workspace's number to `contacts`, its other settings as `body` gives them. */
const campaignTo = (contacts: string[], body: Record<string, unknown>) =>
  createCampaign({ api, phoneNumberId: world.phoneNumberId }, { phone_numbers: contacts, ...body });

describe("a campaign through the telephony double", () => {
  it("places each number once per attempt, within its concurrency, and logs every call with the batch id", async () => {
    double.setOutbound({ outcome: "busy", ringMs: 150 });
    const contacts = numbers(24, 70_000);
    const { id } = await campaignTo(contacts, {
      name: "Busy lines",
      concurrency: 4,
      retry_policy: { max_attempts: 2, delay_seconds: 0, retry_on: ["busy"] },
    });
    let maxLive = 0;
    const sampler = setInterval(() => {
      const live = [...double.calls.values()].filter((c) => c.direction === "outbound" && !c.ended).length;
      maxLive = Math.max(maxLive, live);
    }, 10);
    try {
      expect((await api("POST", `/initiate_batch_call?batch_call_id=${id}`)).statusCode).toBe(200);
      const done = await finishedCampaign(world.t, { api }, id, 120_000);
      expect(done.status).toBe("failed");
      expect(done.phone_numbers.every((c) => c.status === "busy" && c.attempts === 2)).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    const placed = [...double.calls.values()].filter((c) => c.direction === "outbound");
    for (const number of contacts) expect(placed.filter((c) => c.to === number)).toHaveLength(2);
    expect(maxLive).toBeLessThanOrEqual(4);
    expect(maxLive).toBeGreaterThan(0);

    const logs = await eventually(
      () => api("GET", `/call-logs?batch_call_id=${id}&items_per_page=100`).then((r) => r.json<CallLogPage>()),
      (page) => page.total_count === 48,
      "the campaign's call logs",
    );
    expect(logs.data.every((log) => log.batch_call_id === id && log.end_reason === "busy")).toBe(true);
  }, 150_000);
  it("waits while the plan's monthly minutes are spoken for, and calls once the plan has minutes again", async () => {
    const userId = String(claimsOf(world.token).id);
    const plan = (minutes: number) =>
      upsertQuota(
        world.t.ctx.db,
        userId,
        { max_assistants: 50, minutes_per_month: minutes, concurrent_calls: 20, max_workspaces: 5 },
        new Date(),
      );
    await plan(0);
    double.setOutbound({ outcome: "busy", ringMs: 50 });
    const contacts = numbers(3, 80_000);
    const { id } = await campaignTo(contacts, {
      name: "Out of minutes",
      concurrency: 2,
      retry_policy: { max_attempts: 1, delay_seconds: 0, retry_on: [] },
    });
    const placedTo = () =>
      [...double.calls.values()].filter((c) => c.direction === "outbound" && contacts.includes(c.to ?? ""));
    try {
      expect((await api("POST", `/initiate_batch_call?batch_call_id=${id}`)).statusCode).toBe(200);
      // The dialer is refused for minutes (tried again every second): the contacts wait, none fails.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(placedTo()).toHaveLength(0);
      const waiting = (await api("GET", `/batch-calls/${id}`)).json<BatchCall>();
      expect(waiting.status).toBe("running");
      expect(waiting.phone_numbers.every((c) => c.attempts === 0)).toBe(true);
    } finally {
      await plan(1_000);
    }
    const done = await finishedCampaign(world.t, { api }, id, 120_000);
    expect(done.phone_numbers.every((c) => c.status === "busy" && c.attempts === 1)).toBe(true);
    expect(placedTo()).toHaveLength(3);
  }, 150_000);
});
