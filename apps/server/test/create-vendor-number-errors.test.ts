import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import type { BridgeDouble } from "./support/bridge-suite.ts";
import { twilioVendor } from "./support/carrier-vendors.ts";

/**
 * Adding one of a vendor account's numbers reads the account's list first, as an import does, and
 * says the same things when that fails: the vendor refused the saved keys (400, its sentence) or
 * its API could not be reached at the saved address (502, naming it) — not one generic 502 for both.
 */

let t: TestApp;
const twilio = twilioVendor("+14155550161");
let double: BridgeDouble;

beforeAll(async () => {
  [t, double] = await Promise.all([
    createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", PUBLIC_URL: "https://parley.example.com" }),
    twilio.startDouble(),
  ]);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await double?.close();
});

/** A loopback port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

/** A new workspace whose saved Twilio integration holds `credentials`; then POST /phone-numbers for the double's number. */
async function addNumberWith(credentials: Record<string, string>) {
  const user = await signedInUser(t);
  const saved = await call(t, "PUT", "/api/v1/integrations/twilio", { token: user.token, body: { credentials } });
  expect(saved.statusCode, saved.body).toBe(200);
  return call(t, "POST", "/api/v1/phone-numbers", {
    token: user.token,
    body: { number: twilio.number, provider: "twilio", friendly_name: "Front desk" },
  });
}

describe("adding a vendor number says why the account's numbers could not be read", () => {
  it("names the vendor's refusal of the saved token (400)", async () => {
    const res = await addNumberWith({
      account_sid: twilio.sid,
      auth_token: "wrong-token-0123456789",
      base_url: double.origin,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe("Twilio refused the credentials: Authenticate (HTTP 401).");
  });

  it("names the address it could not reach (502)", async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const res = await addNumberWith({ account_sid: twilio.sid, auth_token: twilio.token, base_url: origin });
    expect(res.statusCode, res.body).toBe(502);
    const detail = res.json<{ detail: string }>().detail;
    expect(detail.startsWith(`Could not reach Twilio at ${origin}: `), detail).toBe(true);
  });

  it("still adds the number when the account lists it", async () => {
    const res = await addNumberWith(await twilio.credentials(double));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ number: twilio.number, provider: "twilio" });
  });
});
