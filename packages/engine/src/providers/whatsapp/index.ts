import { requireField } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { withOrigin } from "../shared/vendor-url.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { type CloudAccount, callAction, checkNumber, subscribeApp } from "./cloud-api.ts";
import { parseWebhook, verifySignature } from "./webhook.ts";

/** The Graph API version the WhatsApp Cloud API calls are made with. */
const GRAPH_VERSION = "v21.0";

export default {
  /** Reads the business phone number the credentials are for. */
  async testConnection(credentials, net, baseUrl) {
    const token = requireField("whatsapp", credentials, "access_token");
    const numberId = requireField("whatsapp", credentials, "phone_number_id");
    const url = `https://graph.facebook.com/${GRAPH_VERSION}/${encodeURIComponent(numberId)}`;
    const number = await vendorJson<{ display_phone_number?: string; verified_name?: string }>({
      provider: "whatsapp",
      url: withOrigin(url, baseUrl),
      headers: { authorization: `Bearer ${token}` },
      net,
    });
    const shown = [number.verified_name, number.display_phone_number].filter(Boolean).join(", ");
    return shown ? `Connected to WhatsApp number ${shown}.` : "Connected to WhatsApp.";
  },
  /** Voice calls over the Cloud API's calling flow (the engine's CallingAdapter, loaded by loadCalling). */
  calling: {
    checkNumber,
    subscribeApp,
    verifySignature,
    parseWebhook,
    preAccept: (account: CloudAccount, callId: string, sdp: string) => callAction(account, callId, "pre_accept", sdp),
    accept: (account: CloudAccount, callId: string, sdp: string) => callAction(account, callId, "accept", sdp),
    reject: (account: CloudAccount, callId: string) => callAction(account, callId, "reject"),
    terminate: (account: CloudAccount, callId: string) => callAction(account, callId, "terminate"),
  },
} satisfies VendorAdapters<"whatsapp"> & { calling: unknown };
