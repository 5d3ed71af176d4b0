import type { AddressInfo } from "node:net";
import {
  type DoubleNumber,
  startWhatsappDouble,
  type WhatsappDouble,
} from "@parley/engine/testing/telephony/whatsapp-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";

/**
 * A WhatsApp caller who hangs up while the call is still connecting (the terminate webhook right
 * behind connect): the call ends at once, its log closes as the caller's hang-up and the
 * workspace's concurrency slot is free again — not 30 s later when the media wait gives up.
 */

const APP_SECRET = "meta-app-secret-for-hangup-tests";
const NUMBER: DoubleNumber = {
  phoneNumberId: "106540352249001",
  displayPhoneNumber: "+1 415-555-0177",
  verifiedName: "Parley Hangups",
  businessAccountId: "102290129349001",
  accessToken: "EAAG-hangup-token",
};
const QUICK_NUMBER: DoubleNumber = {
  ...NUMBER,
  phoneNumberId: "106540352249002",
  displayPhoneNumber: "+1 415-555-0178",
  verifiedName: "Parley Quick",
};

let t: TestApp;
let double: WhatsappDouble;
let webhookUrl: string;

beforeAll(async () => {
  double = await startWhatsappDouble({ numbers: [NUMBER, QUICK_NUMBER], appSecret: APP_SECRET });
  t = await createTestApp({
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    WHATSAPP_GRAPH_API_URL: double.apiUrl,
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/telephony/whatsapp/webhook`;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await double?.close();
});

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface LogRow {
  id: string;
  status: string;
  end_reason: string | null;
  channel: string;
}

/** A new user whose workspace answers `number` (E.164 `e164`) with an assistant named `name`. */
async function userWithNumber(name: string, number: DoubleNumber, e164: string) {
  const user = await signedInUser(t);
  const agent = await createAssistant(t, user.token, { name, first_message: "Hello." });
  const integrated = await call(t, "POST", "/api/v1/phone-numbers/whatsapp/integrate", {
    token: user.token,
    body: {
      number: e164,
      access_token: number.accessToken,
      phone_number_id: number.phoneNumberId,
      business_account_id: number.businessAccountId,
      agent_id: agent,
    },
  });
  expect(integrated.statusCode).toBe(201);
  return user;
}

/** The workspace's latest call log once it has closed. */
const closedLog = (token: string, timeoutMs: number) =>
  waitFor(
    async () => {
      const rows: LogRow[] = (await call(t, "GET", "/api/v1/call-logs", { token })).json().data ?? [];
      const row = rows[0];
      return row && row.status !== "queued" && row.status !== "in_progress" ? row : undefined;
    },
    "the call log to close",
    timeoutMs,
  );

describe("a WhatsApp caller hanging up while the call connects", () => {
  it("ends the call at once: log closed as caller_hangup, no accept, the slot freed", async () => {
    const a = await userWithNumber("Hangup desk", NUMBER, "+14155550177");

    // The platform holds its answer to pre_accept, so the call is still connecting when the caller
    // hangs up (the answer itself is ready in milliseconds).
    const release = double.holdPreAccepts();
    const { call: phone, webhook } = await double.call({
      webhookUrl,
      phoneNumberId: NUMBER.phoneNumberId,
      from: "+447700900555",
    });
    expect(webhook.status).toBe(200);
    await waitFor(
      () => double.actions.find((x) => x.callId === phone.callId && x.action === "pre_accept"),
      "pre_accept",
      30_000,
    );
    await phone.hangup(); // the terminate webhook, while Parley is still connecting the call
    const hungUpAt = Date.now();
    release(); // whatever pre_accept's answer now brings, nothing more may follow it

    // Ended at once: well inside the 30 s the media wait would take to give up.
    const log = await closedLog(a.token, 10_000);
    expect(Date.now() - hungUpAt).toBeLessThan(10_000);
    expect(log).toMatchObject({ channel: "whatsapp", status: "failed", end_reason: "caller_hangup" });

    // The concurrency slot is free: no room is left in the workspace.
    const rooms = (await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token })).json().rooms;
    expect(rooms).toEqual([]);
    // Nothing was accepted for a call the user had already ended, and nothing to terminate either.
    const actions = double.actions.filter((x) => x.callId === phone.callId).map((x) => x.action);
    expect(actions).not.toContain("accept");
    expect(actions).not.toContain("terminate");
  }, 60_000);

  it("posts pre_accept right away when no STUN server is set: werift asks none of its own", async () => {
    const b = await userWithNumber("Quick desk", QUICK_NUMBER, "+14155550178");

    const placedAt = Date.now();
    const { call: phone } = await double.call({
      webhookUrl,
      phoneNumberId: QUICK_NUMBER.phoneNumberId,
      from: "+447700900556",
    });
    const preAccept = await waitFor(
      () => double.actions.find((x) => x.callId === phone.callId && x.action === "pre_accept"),
      "pre_accept",
      30_000,
    );
    // Before werift's fallback was turned off it asked stun.l.google.com and posted pre_accept only
    // after its 5 s STUN timeout; host candidates alone take milliseconds (a wide bound for a busy machine).
    expect(preAccept.at - placedAt).toBeLessThan(4_000);
    await phone.hangup();
    await closedLog(b.token, 30_000);
  }, 90_000);
});
