import { accountOrigin } from "../../telephony/account.ts";
import { basicAuth } from "../shared/basic-auth.ts";
import { requireField } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { withOrigin } from "../shared/vendor-url.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { twilioTelephony } from "./telephony.ts";

export default {
  /** Reads the account resource with basic auth; a suspended or closed account fails the check. */
  async testConnection(credentials, net, baseUrl) {
    const sid = requireField("twilio", credentials, "account_sid");
    const token = requireField("twilio", credentials, "auth_token");
    const url = `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(sid)}.json`;
    const account = await vendorJson<{ friendly_name?: string; status?: string }>({
      provider: "twilio",
      url: withOrigin(url, accountOrigin({ credentials, baseUrl })),
      headers: { authorization: basicAuth(sid, token) },
      net,
    });
    if (account.status && account.status !== "active") {
      throw new Error(`the Twilio account "${account.friendly_name ?? sid}" is ${account.status}`);
    }
    return `Connected to Twilio account "${account.friendly_name ?? sid}".`;
  },
  telephony: twilioTelephony,
} satisfies VendorAdapters<"twilio">;
