import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SAMPLE_NUMBER,
  signBody,
  startWhatsappDouble,
  type WhatsappDouble,
} from "../../../testing/telephony/whatsapp-double.ts";
import { loadCalling } from "../../webrtc/load-calling.ts";
import type { CallingAccount, CallingAdapter } from "../../webrtc/types.ts";
import adapters from "./index.ts";

/** The Cloud API calling adapter against the local Graph API double. */

let double: WhatsappDouble;
let calling: CallingAdapter;

beforeAll(async () => {
  double = await startWhatsappDouble({ numbers: [SAMPLE_NUMBER], appSecret: "app-secret" });
  const loaded = await loadCalling("whatsapp");
  if (!loaded) throw new Error("no calling adapter");
  calling = loaded;
});
afterAll(() => double.close());

const account = (overrides: Partial<CallingAccount> = {}): CallingAccount => ({
  apiUrl: double.apiUrl,
  accessToken: SAMPLE_NUMBER.accessToken,
  numberId: SAMPLE_NUMBER.phoneNumberId,
  net: { fetch },
  ...overrides,
});

describe("the calling adapter", () => {
  it("is the vendor folder's calling member, with every function the engine needs", () => {
    // A compile-time check too: the folder's object must satisfy the engine's interface.
    const typed: CallingAdapter = adapters.calling;
    expect(calling).toBe(typed);
  });

  it("reads the number behind the token and checks it is the one given", async () => {
    expect(await calling.checkNumber(account(), "+14155550100")).toEqual({
      ok: true,
      displayNumber: "+1 415-555-0100",
      verifiedName: "Parley Clinic",
    });
    expect(await calling.checkNumber(account(), "+14155550199")).toMatchObject({
      ok: false,
      problem: "number_mismatch",
    });
    expect(await calling.checkNumber(account({ accessToken: "expired" }), "+14155550100")).toMatchObject({
      ok: false,
      problem: "invalid_token",
    });
    expect(await calling.checkNumber(account({ numberId: "123456789" }), "+14155550100")).toMatchObject({
      ok: false,
      problem: "invalid_number_id",
    });
    expect(await calling.checkNumber(account({ apiUrl: "http://127.0.0.1:9/v23.0" }), "+14155550100")).toMatchObject({
      ok: false,
      problem: "unreachable",
    });
  });

  it("subscribes the app to the business account, and says when it is refused", async () => {
    await calling.subscribeApp(account(), SAMPLE_NUMBER.businessAccountId);
    expect(double.subscriptions).toContain(SAMPLE_NUMBER.businessAccountId);
    await expect(calling.subscribeApp(account(), "999")).rejects.toThrow(/refused/);
  });

  it("checks X-Hub-Signature-256 against the raw body", () => {
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    expect(calling.verifySignature(body, signBody(body, "app-secret"), "app-secret")).toBe(true);
    expect(calling.verifySignature(`${body} `, signBody(body, "app-secret"), "app-secret")).toBe(false);
    expect(calling.verifySignature(body, signBody(body, "other"), "app-secret")).toBe(false);
    expect(calling.verifySignature(body, undefined, "app-secret")).toBe(false);
    expect(calling.verifySignature(body, "sha256=zz", "app-secret")).toBe(false);
  });

  it("reads connect and terminate events of the calls field, and skips other fields", () => {
    const change = (field: string, calls: unknown[]) => ({
      field,
      value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "14155550100", phone_number_id: SAMPLE_NUMBER.phoneNumberId },
        contacts: [{ profile: { name: "Ada" }, wa_id: "447700900123" }],
        calls,
      },
    });
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: SAMPLE_NUMBER.businessAccountId,
          changes: [
            change("calls", [
              {
                id: "wacid.1",
                from: "447700900123",
                to: "14155550100",
                event: "connect",
                timestamp: "1",
                session: { sdp_type: "offer", sdp: "v=0" },
              },
              {
                id: "wacid.1",
                from: "447700900123",
                to: "14155550100",
                event: "terminate",
                timestamp: "2",
                status: "COMPLETED",
                duration: 12,
              },
            ]),
            change("messages", []),
          ],
        },
      ],
    });
    expect(calling.parseWebhook(body)).toEqual([
      {
        type: "connect",
        callId: "wacid.1",
        numberId: SAMPLE_NUMBER.phoneNumberId,
        businessNumber: "+14155550100",
        from: "+447700900123",
        to: "+14155550100",
        sdp: "v=0",
        callerName: "Ada",
      },
      {
        type: "terminate",
        callId: "wacid.1",
        numberId: SAMPLE_NUMBER.phoneNumberId,
        businessNumber: "+14155550100",
        from: "+447700900123",
        to: "+14155550100",
        status: "COMPLETED",
        durationSeconds: 12,
      },
    ]);
    expect(() => calling.parseWebhook("not json")).toThrow();
  });
});
