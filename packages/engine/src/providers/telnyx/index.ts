import { accountOrigin } from "../../telephony/account.ts";
import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { withOrigin } from "../shared/vendor-url.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { telnyxTelephony } from "./telephony.ts";

export default {
  /** Reads the balance, which also proves the key. */
  async testConnection(credentials, net, baseUrl) {
    const body = await vendorJson<{ data?: { balance?: string; currency?: string } }>({
      provider: "telnyx",
      url: withOrigin("https://api.telnyx.com/v2/balance", accountOrigin({ credentials, baseUrl })),
      headers: { authorization: `Bearer ${requireKey("telnyx", credentials)}` },
      net,
    });
    const balance = body.data?.balance;
    return balance
      ? `Connected to Telnyx. Balance: ${balance} ${body.data?.currency ?? ""}`.trim()
      : "Connected to Telnyx.";
  },
  telephony: telnyxTelephony,
} satisfies VendorAdapters<"telnyx">;
