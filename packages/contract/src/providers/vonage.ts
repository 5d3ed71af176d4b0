import { credential, type ProviderDescriptor } from "./types.ts";

export const vonage = {
  id: "vonage",
  label: "Vonage",
  credentials: [credential("api_key", "API key"), credential("api_secret", "API secret", { secret: true })],
  env: { api_key: "VONAGE_API_KEY", api_secret: "VONAGE_API_SECRET" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
