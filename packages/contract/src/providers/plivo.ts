import { apiBaseUrl, credential } from "./credentials.ts";
import type { ProviderDescriptor } from "./types.ts";

export const plivo = {
  id: "plivo",
  label: "Plivo",
  credentials: [credential("auth_id", "Auth ID"), credential("auth_token", "Auth token", { secret: true }), apiBaseUrl],
  env: { auth_id: "PLIVO_AUTH_ID", auth_token: "PLIVO_AUTH_TOKEN" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
