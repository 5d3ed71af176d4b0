import { apiBaseUrl, apiKey, credential } from "./credentials.ts";
import type { ProviderDescriptor } from "./types.ts";

export const telnyx = {
  id: "telnyx",
  label: "Telnyx",
  credentials: [
    apiKey,
    // The TeXML application numbers are assigned to and outbound calls are placed through.
    credential("application_id", "TeXML application ID"),
    // Verifies webhook signatures (Ed25519); Mission Control shows it under Keys & Credentials.
    credential("public_key", "Public key"),
    apiBaseUrl,
  ],
  env: { api_key: "TELNYX_API_KEY" },
  integrationKinds: ["telephony"],
  telephony: { pricePerMinute: 0.014 },
} as const satisfies ProviderDescriptor;
