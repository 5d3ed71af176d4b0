import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import type { BridgeDouble, BridgeVendor } from "./support/bridge-suite.ts";
import { plivoVendor, telnyxVendor, twilioVendor, vonageVendor } from "./support/carrier-vendors.ts";

/**
 * Issue 26 item 5: "Test connection" on a carrier integration asks the API its saved base URL names
 * (the local double here), as number setup does; importing numbers says whether the vendor refused
 * the keys or could not be reached, instead of one generic text for both.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", PUBLIC_URL: "https://parley.example.com" });
}, 180_000);
afterAll(async () => {
  await t?.close();
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

describe("test connection of a carrier integration", () => {
  const vendors: BridgeVendor[] = [twilioVendor(), telnyxVendor(), plivoVendor(), vonageVendor()];
  for (const vendor of vendors) {
    it(`asks ${vendor.label} at the integration's saved base URL`, async () => {
      const double: BridgeDouble = await vendor.startDouble();
      try {
        const user = await signedInUser(t);
        const credentials = await vendor.credentials(double);
        const saved = await call(t, "PUT", `/api/v1/integrations/${vendor.provider}`, {
          token: user.token,
          body: { credentials },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const res = await call(t, "POST", `/api/v1/integrations/${vendor.provider}/test`, {
          token: user.token,
          body: {},
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ ok: boolean; message: string }>()).toMatchObject({
          ok: true,
          message: expect.stringMatching(new RegExp(`^Connected to ${vendor.label}`)),
        });
      } finally {
        await double.close();
      }
    }, 60_000);
  }
});

describe("importing numbers says why the vendor's list could not be read", () => {
  const twilio = twilioVendor("+14155550150");
  let double: BridgeDouble;
  beforeAll(async () => {
    double = await twilio.startDouble();
  }, 180_000);
  afterAll(async () => {
    await double?.close();
  });

  const importNumbers = async (credentials: Record<string, string>) => {
    const user = await signedInUser(t);
    return call(t, "POST", "/api/v1/phone-numbers/providers/import-numbers", {
      token: user.token,
      body: { provider: "twilio", credentials },
    });
  };

  it("names the vendor's refusal of a bad token (400)", async () => {
    const res = await importNumbers({
      account_sid: twilio.sid,
      auth_token: "wrong-token-0123456789",
      base_url: double.origin,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe("Twilio refused the credentials: Authenticate (HTTP 401).");
  });

  it("names the address it could not reach (502)", async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const res = await importNumbers({ account_sid: twilio.sid, auth_token: twilio.token, base_url: origin });
    expect(res.statusCode).toBe(502);
    const detail = res.json<{ detail: string }>().detail;
    expect(detail.startsWith(`Could not reach Twilio at ${origin}: `), detail).toBe(true);
    expect(detail).toMatch(/ECONNREFUSED/);
  });
});
