import { apiKey, type ProviderDescriptor } from "./types.ts";

export const telnyx = {
  id: "telnyx",
  label: "Telnyx",
  credentials: [apiKey],
  env: { api_key: "TELNYX_API_KEY" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
