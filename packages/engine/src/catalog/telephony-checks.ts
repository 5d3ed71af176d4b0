import type { NetworkDeps } from "../providers/types.ts";
import { withOrigin } from "../providers/vendor-url.ts";
import { type Credentials, requireField } from "./vendor-auth.ts";
import { vendorJson } from "./vendor-http.ts";

/** One account probe: calls the vendor and describes what it found, or throws a ProviderError. */
export type AccountCheck = (credentials: Credentials, net: NetworkDeps, baseUrl?: string) => Promise<string>;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** The Graph API version the WhatsApp Cloud API calls are made with. */
export const WHATSAPP_GRAPH_VERSION = "v21.0";

/** Read-only calls that prove telephony and messaging credentials work. */
export const TELEPHONY_CHECKS: Record<string, AccountCheck> = {
  async twilio(credentials, net, baseUrl) {
    const sid = requireField("twilio", credentials, "account_sid");
    const token = requireField("twilio", credentials, "auth_token");
    const url = `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(sid)}.json`;
    const account = await vendorJson<{ friendly_name?: string; status?: string }>(
      { provider: "twilio", url: withOrigin(url, baseUrl), headers: { authorization: basic(sid, token) } },
      net,
    );
    if (account.status && account.status !== "active") {
      throw new Error(`the Twilio account "${account.friendly_name ?? sid}" is ${account.status}`);
    }
    return `Connected to Twilio account "${account.friendly_name ?? sid}".`;
  },

  async telnyx(credentials, net, baseUrl) {
    const key = requireField("telnyx", credentials, "api_key");
    const body = await vendorJson<{ data?: { balance?: string; currency?: string } }>(
      {
        provider: "telnyx",
        url: withOrigin("https://api.telnyx.com/v2/balance", baseUrl),
        headers: { authorization: `Bearer ${key}` },
      },
      net,
    );
    const balance = body.data?.balance;
    return balance
      ? `Connected to Telnyx. Balance: ${balance} ${body.data?.currency ?? ""}`.trim()
      : "Connected to Telnyx.";
  },

  async vonage(credentials, net, baseUrl) {
    const key = requireField("vonage", credentials, "api_key");
    const secret = requireField("vonage", credentials, "api_secret");
    const query = new URLSearchParams({ api_key: key, api_secret: secret });
    const body = await vendorJson<{ value?: number }>(
      { provider: "vonage", url: withOrigin(`https://rest.nexmo.com/account/get-balance?${query}`, baseUrl) },
      net,
    );
    return typeof body.value === "number"
      ? `Connected to Vonage. Balance: ${body.value.toFixed(2)} EUR`
      : "Connected to Vonage.";
  },

  async plivo(credentials, net, baseUrl) {
    const id = requireField("plivo", credentials, "auth_id");
    const token = requireField("plivo", credentials, "auth_token");
    const url = `https://api.plivo.com/v1/Account/${encodeURIComponent(id)}/`;
    const account = await vendorJson<{ name?: string; cash_credits?: string }>(
      { provider: "plivo", url: withOrigin(url, baseUrl), headers: { authorization: basic(id, token) } },
      net,
    );
    return `Connected to Plivo account "${account.name ?? id}".`;
  },

  async whatsapp(credentials, net, baseUrl) {
    const token = requireField("whatsapp", credentials, "access_token");
    const numberId = requireField("whatsapp", credentials, "phone_number_id");
    const url = `https://graph.facebook.com/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(numberId)}`;
    const number = await vendorJson<{ display_phone_number?: string; verified_name?: string }>(
      { provider: "whatsapp", url: withOrigin(url, baseUrl), headers: { authorization: `Bearer ${token}` } },
      net,
    );
    const shown = [number.verified_name, number.display_phone_number].filter(Boolean).join(", ");
    return shown ? `Connected to WhatsApp number ${shown}.` : "Connected to WhatsApp.";
  },
};
