import { apiBaseUrl, credential } from "./credentials.ts";
import type { ProviderDescriptor } from "./types.ts";

export const twilio = {
  id: "twilio",
  label: "Twilio",
  credentials: [
    credential("account_sid", "Account SID"),
    credential("auth_token", "Auth token", { secret: true }),
    // A regional edge (https://api.dublin.ie1.twilio.com) or a local double; the public API when empty.
    apiBaseUrl,
  ],
  env: { account_sid: "TWILIO_ACCOUNT_SID", auth_token: "TWILIO_AUTH_TOKEN" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
