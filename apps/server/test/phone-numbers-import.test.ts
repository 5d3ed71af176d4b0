import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

/**
 * Importing and configuring vendor numbers against the local Twilio double, which speaks Twilio's
 * REST API (Basic auth, IncomingPhoneNumbers list and update, error 20003 for bad keys).
 */

const ACCOUNT = { sid: "AC11111111111111111111111111111111", token: "auth-token-one-0123456789" };
const OTHER = { sid: "AC22222222222222222222222222222222", token: "auth-token-two-0123456789" };
const ACCOUNT_NUMBERS = ["+14155550101", "+14155550102", "+442071838750"];

let t: TestApp;
let twilio: TwilioDouble;
beforeAll(async () => {
  twilio = await startTwilioDouble({
    accounts: [
      { ...ACCOUNT, numbers: ACCOUNT_NUMBERS },
      { ...OTHER, numbers: ["+14155550201"] },
    ],
    // Small pages: the import follows next_page_uri.
    pageSize: 2,
  });
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", PUBLIC_URL: "https://parley.example.com" });
});
afterAll(async () => {
  await t?.close();
  await twilio?.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

const credentials = (account: { sid: string; token: string }) => ({
  account_sid: account.sid,
  auth_token: account.token,
  base_url: twilio.origin,
});

async function saveIntegration(user: User, account: { sid: string; token: string }): Promise<void> {
  const res = await call(t, "PUT", "/api/v1/integrations/twilio", {
    token: user.token,
    body: { credentials: credentials(account) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const importNumbers = (user: User, body: Record<string, unknown>) =>
  call(t, "POST", "/api/v1/phone-numbers/providers/import-numbers", { token: user.token, body });

const numbersOf = async (user: User) =>
  (await call(t, "GET", "/api/v1/phone-numbers", { token: user.token })).json<{
    phone_numbers: {
      id: string;
      number: string;
      provider: string;
      integration_id: string | null;
      provider_number_id: string | null;
      agent_name: string | null;
      friendly_name: string;
    }[];
  }>().phone_numbers;

const vendorNumber = (e164: string) => [...twilio.numbers.values()].find((n) => n.phoneNumber === e164);

describe("import numbers from a vendor account", () => {
  it("imports every number with typed credentials, points its webhooks at PUBLIC_URL and saves the integration", async () => {
    const user = await signedInUser(t);
    const agent = (await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name: "Reception" } })).json<{
      id: string;
    }>().id;
    const res = await importNumbers(user, { provider: "twilio", credentials: credentials(ACCOUNT), agent_id: agent });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported_count: 3, failed_count: 0, failures: [] });

    const numbers = await numbersOf(user);
    expect(numbers.map((n) => n.number).sort()).toEqual([...ACCOUNT_NUMBERS].sort());
    for (const n of numbers) {
      expect(n).toMatchObject({ provider: "twilio", agent_name: "Reception" });
      expect(n.provider_number_id).toBe(vendorNumber(n.number)?.sid);
      expect(n.integration_id).toEqual(expect.any(String));
      expect(vendorNumber(n.number)).toMatchObject({
        voiceUrl: "https://parley.example.com/api/v1/telephony/twilio/voice",
        voiceMethod: "POST",
        statusCallback: "https://parley.example.com/api/v1/telephony/twilio/status",
      });
    }
    expect(numbers.find((n) => n.number === "+14155550101")?.friendly_name).toBe("(415) 555-0101");

    // The typed credentials became the workspace's integration, so the numbers keep working.
    const integrations = await call(t, "GET", "/api/v1/integrations", { token: user.token });
    expect(
      integrations.json<{ integrations: { provider: string; configured: boolean }[] }>().integrations,
    ).toContainEqual(expect.objectContaining({ provider: "twilio", configured: true }));

    // Importing again: every number is already registered, each counted failed with the reason.
    const again = await importNumbers(user, { provider: "twilio", integration_id: numbers[0]?.integration_id });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ imported_count: 0, failed_count: 3 });
    expect(again.json<{ failures: { reason: string }[] }>().failures.map((f) => f.reason)).toEqual(
      Array(3).fill(PHONE_NUMBER_TEXTS.duplicate),
    );
  });

  it("imports from a saved integration, counting numbers already registered as failed", async () => {
    const user = await signedInUser(t);
    await saveIntegration(user, OTHER);
    const first = await importNumbers(user, { provider: "twilio", credentials: credentials(OTHER) });
    expect(first.json()).toMatchObject({ imported_count: 1, failed_count: 0 });
    const integrationId = (await numbersOf(user))[0]?.integration_id;
    const res = await importNumbers(user, { provider: "twilio", integration_id: integrationId });
    expect(res.json()).toEqual({
      imported_count: 0,
      failed_count: 1,
      failures: [{ number: "+14155550201", reason: PHONE_NUMBER_TEXTS.duplicate }],
    });
  });

  it("answers keys the vendor refuses with the §8 400 and saves nothing", async () => {
    const user = await signedInUser(t);
    const res = await importNumbers(user, {
      provider: "twilio",
      credentials: { ...credentials(ACCOUNT), auth_token: "wrong-token-0123456789" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: "Twilio refused the credentials: Authenticate (HTTP 401)." });
    expect(await numbersOf(user)).toEqual([]);
    const integrations = await call(t, "GET", "/api/v1/integrations", { token: user.token });
    expect(
      integrations.json<{ integrations: { provider: string; configured: boolean }[] }>().integrations,
    ).toContainEqual(expect.objectContaining({ provider: "twilio", configured: false }));
  });

  it("refuses another workspace's integration", async () => {
    const owner = await signedInUser(t);
    await importNumbers(owner, { provider: "twilio", credentials: credentials(OTHER) });
    const integrationId = (await numbersOf(owner))[0]?.integration_id;
    const stranger = await signedInUser(t);
    const res = await importNumbers(stranger, { provider: "twilio", integration_id: integrationId });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: "integration_id" }] });
    expect(await numbersOf(stranger)).toEqual([]);
  });
});

describe("create a vendor number through the workspace's integration", () => {
  it("configures the number's webhooks and records the vendor's id", async () => {
    const user = await signedInUser(t);
    await saveIntegration(user, OTHER);
    const res = await call(t, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: { number: "(415) 555-0201", country: "US", provider: "twilio" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      number: "+14155550201",
      provider_number_id: vendorNumber("+14155550201")?.sid,
      integration_id: expect.any(String),
    });
    expect(vendorNumber("+14155550201")?.voiceUrl).toBe("https://parley.example.com/api/v1/telephony/twilio/voice");
  });

  it("answers 502 'Unable to configure phone service' when the account does not hold the number", async () => {
    const user = await signedInUser(t);
    await saveIntegration(user, OTHER);
    const res = await call(t, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: { number: "+14155550999", provider: "twilio" },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json<{ detail: string }>().detail).toMatch(/^Unable to configure phone service/);
    expect(await numbersOf(user)).toEqual([]);
  });

  it("answers 502 when the vendor refuses the saved keys", async () => {
    const user = await signedInUser(t);
    await saveIntegration(user, { sid: OTHER.sid, token: "no-longer-valid-0123456789" });
    const res = await call(t, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: { number: "+14155550201", provider: "twilio" },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: PHONE_NUMBER_TEXTS.configureFailed });
  });
});
