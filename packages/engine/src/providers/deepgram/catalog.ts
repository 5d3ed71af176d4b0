import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, ModelListing, VoiceOption } from "../vendor-adapters.ts";

export const ROOT = "https://api.deepgram.com";
export const auth = (key: string) => ({ authorization: `Token ${key}` });

interface DeepgramModels {
  stt?: { name?: string; canonical_name?: string; architecture?: string }[];
  tts?: { name?: string; canonical_name?: string; architecture?: string; languages?: string[] }[];
}

/** `/v1/models` lists both products: recognition models and Aura voices. */
function models(credentials: Credentials, net: NetworkDeps, options: CatalogOptions): Promise<DeepgramModels> {
  const headers = auth(requireKey("deepgram", credentials));
  const url = withOrigin(joinUrl(ROOT, "v1/models"), options.baseUrl);
  return vendorJson<DeepgramModels>({ provider: "deepgram", url, headers, net });
}

export const listModels: ModelListing = {
  kinds: ["stt", "tts"],
  async list(kind, credentials, net, options) {
    const body = await models(credentials, net, options);
    if (kind === "stt") return (body.stt ?? []).map((m) => m.canonical_name ?? m.name ?? "").filter(Boolean);
    // TTS entries are voices ("aura-2-thalia-en"); the model is the family before the voice name.
    return (body.tts ?? []).map((m) => (m.canonical_name ?? "").split("-").slice(0, -2).join("-")).filter(Boolean);
  },
};

/** The Aura voices, narrowed to one model family when `options.model` is set. */
export async function listVoices(
  credentials: Credentials,
  net: NetworkDeps,
  options: CatalogOptions,
): Promise<VoiceOption[]> {
  const body = await models(credentials, net, options);
  const seen = new Set<string>();
  const voices: VoiceOption[] = [];
  for (const entry of body.tts ?? []) {
    const id = entry.canonical_name;
    if (!id || seen.has(id) || (options.model && !id.startsWith(`${options.model}-`))) continue;
    seen.add(id);
    const language = entry.languages?.[0];
    const name = capitalize(entry.name ?? id);
    voices.push({ id, name: language ? `${name} (${language})` : name });
  }
  return voices;
}

function capitalize(text: string): string {
  return text ? text[0]?.toUpperCase() + text.slice(1) : text;
}
