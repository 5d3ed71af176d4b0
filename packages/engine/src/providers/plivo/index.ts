import { accountOrigin } from "../../telephony/account.ts";
import { basicAuth } from "../shared/basic-auth.ts";
import { requireField } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { withOrigin } from "../shared/vendor-url.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { plivoTelephony } from "./telephony.ts";

export default {
  /** Reads the account resource with basic auth. */
  async testConnection(credentials, net, baseUrl) {
    const id = requireField("plivo", credentials, "auth_id");
    const token = requireField("plivo", credentials, "auth_token");
    const url = `https://api.plivo.com/v1/Account/${encodeURIComponent(id)}/`;
    const account = await vendorJson<{ name?: string; cash_credits?: string }>({
      provider: "plivo",
      url: withOrigin(url, accountOrigin({ credentials, baseUrl })),
      headers: { authorization: basicAuth(id, token) },
      net,
    });
    return `Connected to Plivo account "${account.name ?? id}".`;
  },
  telephony: plivoTelephony,
} satisfies VendorAdapters<"plivo">;
