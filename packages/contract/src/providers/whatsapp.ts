import { credential } from "./credentials.ts";
import type { ProviderDescriptor } from "./types.ts";

export const whatsapp = {
  id: "whatsapp",
  label: "WhatsApp Business",
  credentials: [
    credential("access_token", "Access token", { secret: true }),
    credential("phone_number_id", "Phone number ID"),
    credential("business_account_id", "Business account ID", { optional: true }),
  ],
  // The optional business account id has no server-wide variable.
  env: { access_token: "WHATSAPP_ACCESS_TOKEN", phone_number_id: "WHATSAPP_PHONE_NUMBER_ID" },
  integrationKinds: ["messaging"],
} as const satisfies ProviderDescriptor;
