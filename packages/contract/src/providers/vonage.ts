import { apiBaseUrl, credential } from "./credentials.ts";
import type { ProviderDescriptor } from "./types.ts";

export const vonage = {
  id: "vonage",
  label: "Vonage",
  credentials: [
    credential("api_key", "API key"),
    credential("api_secret", "API secret", { secret: true }),
    // The Voice API application: numbers are linked to it, calls are placed with its key (RS256 JWT).
    credential("application_id", "Application ID"),
    credential("private_key", "Application private key", { secret: true }),
    // Verifies signed webhooks (HS256 JWT); the dashboard shows it under API settings.
    credential("signature_secret", "Signature secret", { secret: true }),
    apiBaseUrl,
  ],
  env: { api_key: "VONAGE_API_KEY", api_secret: "VONAGE_API_SECRET" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
