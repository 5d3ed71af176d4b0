import { randomBytes } from "node:crypto";
import { startPlivoDouble } from "@parley/engine/testing/telephony/plivo-double";
import { describeBridge } from "./support/bridge-suite.ts";

/** Phone calls over Plivo audio streams, end to end against the local Plivo double. */

const AUTH_ID = `MA${randomBytes(9).toString("hex").toUpperCase()}`;
const TOKEN = randomBytes(20).toString("hex");
const NUMBER = "+14155550102";

describeBridge({
  provider: "plivo",
  label: "Plivo",
  number: NUMBER,
  startDouble: () => startPlivoDouble({ accounts: [{ authId: AUTH_ID, authToken: TOKEN, numbers: [NUMBER] }] }),
  credentials: async (double) => ({ auth_id: AUTH_ID, auth_token: TOKEN, base_url: double.origin }),
  dtmfReconnectsStream: false,
  machineDetection: true,
});
