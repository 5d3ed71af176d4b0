import { accountOrigin } from "../../telephony/account.ts";
import { requireField, requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { withOrigin } from "../shared/vendor-url.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { vonageTelephony } from "./telephony.ts";

export default {
  /** Reads the balance; Vonage takes the key and secret as query parameters. */
  async testConnection(credentials, net, baseUrl) {
    const query = new URLSearchParams({
      api_key: requireKey("vonage", credentials),
      api_secret: requireField("vonage", credentials, "api_secret"),
    });
    const body = await vendorJson<{ value?: number }>({
      provider: "vonage",
      url: withOrigin(`https://rest.nexmo.com/account/get-balance?${query}`, accountOrigin({ credentials, baseUrl })),
      net,
    });
    return typeof body.value === "number"
      ? `Connected to Vonage. Balance: ${body.value.toFixed(2)} EUR`
      : "Connected to Vonage.";
  },
  telephony: vonageTelephony,
} satisfies VendorAdapters<"vonage">;
