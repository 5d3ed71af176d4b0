import { randomBytes } from "node:crypto";
import { startVonageDouble, type VonageDouble } from "@parley/engine/testing/telephony/vonage-double";
import { type BridgeDouble, describeBridge } from "./support/bridge-suite.ts";

/** Phone calls over Vonage's WebSocket (binary L16) connection, end to end against the local Vonage double. */

const API_KEY = randomBytes(4).toString("hex");
const API_SECRET = randomBytes(8).toString("hex");
const NUMBER = "+447700900100";
let vonage: VonageDouble | undefined;

const field = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined), value);

/** A Voice application on the account (its key pair places calls); Parley points its webhooks at itself. */
async function voiceApplication(origin: string): Promise<{ id: string; privateKey: string }> {
  const res = await fetch(`${origin}/v2/applications`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${API_KEY}:${API_SECRET}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      name: "Parley",
      capabilities: {
        voice: {
          webhooks: {
            answer_url: { address: "https://example.com/answer", http_method: "POST" },
            event_url: { address: "https://example.com/event", http_method: "POST" },
          },
        },
      },
    }),
  });
  const body: unknown = await res.json();
  const id = field(body, "id");
  const privateKey = field(body, "keys", "private_key");
  if (typeof id !== "string" || typeof privateKey !== "string") {
    throw new Error(`creating a Vonage application failed: ${JSON.stringify(body)}`);
  }
  return { id, privateKey };
}

describeBridge({
  provider: "vonage",
  label: "Vonage",
  number: NUMBER,
  startDouble: async () => {
    vonage = await startVonageDouble({ accounts: [{ apiKey: API_KEY, apiSecret: API_SECRET, numbers: [NUMBER] }] });
    return vonage;
  },
  credentials: async (double: BridgeDouble) => {
    const application = await voiceApplication(double.origin);
    return {
      api_key: API_KEY,
      api_secret: API_SECRET,
      application_id: application.id,
      private_key: application.privateKey,
      signature_secret: vonage?.signatureSecret(API_KEY) ?? "",
      base_url: double.origin,
    };
  },
  dtmfReconnectsStream: false,
  machineDetection: true,
});
