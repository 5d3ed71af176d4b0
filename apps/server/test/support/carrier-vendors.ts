import { randomBytes } from "node:crypto";
import { startPlivoDouble } from "@parley/engine/testing/telephony/plivo-double";
import { startTelnyxDouble, type TelnyxDouble } from "@parley/engine/testing/telephony/telnyx-double";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { startVonageDouble, type VonageDouble } from "@parley/engine/testing/telephony/vonage-double";
import type { BridgeDouble, BridgeVendor } from "./bridge-suite.ts";

/**
 * The four media-stream vendors as the API suite runs them: a local double with one account and
 * one number, and the integration's credentials pointed at it (creating the vendor-side
 * application first where the vendor needs one). Each call of a factory makes fresh accounts.
 */

const field = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined), value);

async function postJson(url: string, authorization: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

/** The Twilio vendor, and its account's auth token (it signs test webhooks). */
export function twilioVendor(number = "+14155550100"): BridgeVendor & { sid: string; token: string } {
  const sid = `AC${randomBytes(16).toString("hex")}`;
  const token = randomBytes(16).toString("hex");
  return {
    sid,
    token,
    provider: "twilio",
    label: "Twilio",
    number,
    startDouble: () => startTwilioDouble({ accounts: [{ sid, token, numbers: [number] }] }),
    credentials: async (double) => ({ account_sid: sid, auth_token: token, base_url: double.origin }),
    dtmfReconnectsStream: true,
    machineDetection: true,
  };
}

export function telnyxVendor(number = "+14155550101"): BridgeVendor {
  const key = `KEY${randomBytes(16).toString("hex")}`;
  let telnyx: TelnyxDouble | undefined;
  /** A TeXML application on the account: Parley places calls through it and points numbers at it. */
  const texmlApplication = async (origin: string) => {
    const body = await postJson(`${origin}/v2/texml_applications`, `Bearer ${key}`, {
      friendly_name: "Parley",
      voice_url: "https://example.com/voice",
    });
    const id = field(body, "data", "id");
    if (typeof id !== "string") throw new Error(`creating a TeXML application failed: ${JSON.stringify(body)}`);
    return id;
  };
  return {
    provider: "telnyx",
    label: "Telnyx",
    number,
    startDouble: async () => {
      telnyx = await startTelnyxDouble({ accounts: [{ apiKey: key, numbers: [number] }] });
      return telnyx;
    },
    credentials: async (double: BridgeDouble) => ({
      api_key: key,
      application_id: await texmlApplication(double.origin),
      public_key: telnyx?.publicKey ?? "",
      base_url: double.origin,
    }),
    dtmfReconnectsStream: false,
    machineDetection: true,
  };
}

export function plivoVendor(number = "+14155550102"): BridgeVendor {
  const authId = `MA${randomBytes(9).toString("hex").toUpperCase()}`;
  const token = randomBytes(20).toString("hex");
  return {
    provider: "plivo",
    label: "Plivo",
    number,
    startDouble: () => startPlivoDouble({ accounts: [{ authId, authToken: token, numbers: [number] }] }),
    credentials: async (double) => ({ auth_id: authId, auth_token: token, base_url: double.origin }),
    dtmfReconnectsStream: false,
    machineDetection: true,
  };
}

/** The Vonage vendor, and the started double (its signature secret signs test webhooks). */
export function vonageVendor(number = "+447700900100"): BridgeVendor & { apiKey: string; double(): VonageDouble } {
  const apiKey = randomBytes(4).toString("hex");
  const apiSecret = randomBytes(8).toString("hex");
  let vonage: VonageDouble | undefined;
  /** A Voice application on the account (its key pair places calls); Parley points its webhooks at itself. */
  const voiceApplication = async (origin: string) => {
    const webhook = (path: string) => ({ address: `https://example.com/${path}`, http_method: "POST" });
    const body = await postJson(
      `${origin}/v2/applications`,
      `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`,
      {
        name: "Parley",
        capabilities: { voice: { webhooks: { answer_url: webhook("answer"), event_url: webhook("event") } } },
      },
    );
    const id = field(body, "id");
    const privateKey = field(body, "keys", "private_key");
    if (typeof id !== "string" || typeof privateKey !== "string") {
      throw new Error(`creating a Vonage application failed: ${JSON.stringify(body)}`);
    }
    return { id, privateKey };
  };
  return {
    apiKey,
    provider: "vonage",
    label: "Vonage",
    number,
    startDouble: async () => {
      vonage = await startVonageDouble({ accounts: [{ apiKey, apiSecret, numbers: [number] }] });
      return vonage;
    },
    credentials: async (double: BridgeDouble) => {
      const application = await voiceApplication(double.origin);
      return {
        api_key: apiKey,
        api_secret: apiSecret,
        application_id: application.id,
        private_key: application.privateKey,
        signature_secret: vonage?.signatureSecret(apiKey) ?? "",
        base_url: double.origin,
      };
    },
    dtmfReconnectsStream: false,
    machineDetection: true,
    double() {
      if (!vonage) throw new Error("the Vonage double has not started");
      return vonage;
    },
  };
}
