import { randomBytes } from "node:crypto";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { describeBridge } from "./support/bridge-suite.ts";

/** Phone calls over Twilio Media Streams, end to end against the local Twilio double. */

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550100";

describeBridge({
  provider: "twilio",
  label: "Twilio",
  number: NUMBER,
  startDouble: () => startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] }),
  credentials: async (double) => ({ account_sid: SID, auth_token: TOKEN, base_url: double.origin }),
  dtmfReconnectsStream: true,
  machineDetection: true,
});
