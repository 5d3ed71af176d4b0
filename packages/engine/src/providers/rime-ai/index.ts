import { requireKey } from "../shared/credentials.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import { vendorJson, vendorRequest } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, VendorAdapters, VoiceOption } from "../vendor-adapters.ts";
import { RimeTts } from "./tts.ts";

const ID = "rime-ai";
const ROOT = "https://users.rime.ai";

/** `{ model: { language: [speaker] } }`, or the older `{ model: [speaker] }`. */
type RimeCatalog = Record<string, Record<string, string[]> | string[]>;

/** The public voice catalog (no key needed to browse it), narrowed to one model when asked. */
async function listVoices(_credentials: Credentials, net: NetworkDeps, options: CatalogOptions) {
  const url = withOrigin(joinUrl(ROOT, "data/voices/all-v2.json"), options.baseUrl);
  const catalog = await vendorJson<RimeCatalog>({ provider: ID, url, net });
  const seen = new Map<string, VoiceOption>();
  for (const [modelId, voices] of Object.entries(catalog)) {
    if (options.model && modelId !== options.model) continue;
    const byLanguage = Array.isArray(voices) ? { "": voices } : voices;
    for (const [language, speakers] of Object.entries(byLanguage)) {
      for (const speaker of speakers) {
        if (seen.has(speaker)) continue;
        const name = capitalize(speaker);
        seen.set(speaker, { id: speaker, name: language ? `${name} (${language})` : name });
      }
    }
  }
  return [...seen.values()];
}

function capitalize(text: string): string {
  return text ? text[0]?.toUpperCase() + text.slice(1) : text;
}

export default {
  tts: (options) => new RimeTts(cloudOptions(ID, options)),
  listVoices,
  // The voice list is public, so the key is proven with the (free) dictionary coverage lookup.
  async testConnection(credentials, net, baseUrl) {
    const headers = { authorization: `Bearer ${requireKey(ID, credentials)}`, accept: "application/json" };
    const url = withOrigin(joinUrl(ROOT, "oov"), baseUrl);
    await vendorRequest({ provider: ID, url, method: "POST", headers, json: { text: "hello" }, net });
    return "Connected to Rime.";
  },
} satisfies VendorAdapters<"rime-ai">;
