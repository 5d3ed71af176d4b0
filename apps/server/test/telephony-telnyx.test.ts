import { randomBytes } from "node:crypto";
import { startTelnyxDouble, type TelnyxDouble } from "@parley/engine/testing/telephony/telnyx-double";
import { type BridgeDouble, describeBridge } from "./support/bridge-suite.ts";

/** Phone calls over Telnyx TeXML and media streaming, end to end against the local Telnyx double. */

const KEY = `KEY${randomBytes(16).toString("hex")}`;
const NUMBER = "+14155550101";
let telnyx: TelnyxDouble | undefined;

/** A TeXML application on the account: Parley places calls through it and points numbers at it. */
async function texmlApplication(origin: string): Promise<string> {
  const res = await fetch(`${origin}/v2/texml_applications`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ friendly_name: "Parley", voice_url: "https://example.com/voice" }),
  });
  const body: unknown = await res.json();
  const id =
    typeof body === "object" && body !== null && "data" in body && typeof body.data === "object" && body.data
      ? Reflect.get(body.data, "id")
      : undefined;
  if (typeof id !== "string") throw new Error(`creating a TeXML application failed: ${JSON.stringify(body)}`);
  return id;
}

describeBridge({
  provider: "telnyx",
  label: "Telnyx",
  number: NUMBER,
  startDouble: async () => {
    telnyx = await startTelnyxDouble({ accounts: [{ apiKey: KEY, numbers: [NUMBER] }] });
    return telnyx;
  },
  credentials: async (double: BridgeDouble) => ({
    api_key: KEY,
    application_id: await texmlApplication(double.origin),
    public_key: telnyx?.publicKey ?? "",
    base_url: double.origin,
  }),
  dtmfReconnectsStream: false,
  machineDetection: true,
});
