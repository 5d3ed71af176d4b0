import type { TtsProviderId } from "@parley/contract";
import type { NetworkDeps } from "../providers/types.ts";
import { joinUrl, withOrigin } from "../providers/vendor-url.ts";
import { type Credentials, PLAYHT_ROOT, playhtHeaders, requireField, SPEECH_VENDORS } from "./vendor-auth.ts";
import { vendorJson } from "./vendor-http.ts";

export interface VoiceOption {
  id: string;
  name: string;
}

export interface CatalogOptions {
  /** Replaces the vendor's origin, keeping its paths: for tests. */
  baseUrl?: string;
  /** Narrows the voices to one model where the vendor ties voices to models (Deepgram, Rime). */
  model?: string;
}

/** OpenAI publishes no voice list endpoint; these are the documented built-in voices. */
const OPENAI_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"];

/** The espeak-ng voices the offline synthesiser ships with. */
const LOCAL_VOICES: VoiceOption[] = [
  { id: "en-us", name: "English (US)" },
  { id: "en", name: "English (UK)" },
  { id: "es", name: "Spanish" },
  { id: "fr", name: "French" },
  { id: "de", name: "German" },
  { id: "hi", name: "Hindi" },
  { id: "pt-br", name: "Portuguese (Brazil)" },
  { id: "ar", name: "Arabic" },
];

/** The voices a text-to-speech provider offers this account, fetched live from the vendor. */
export async function listVoices(
  provider: TtsProviderId,
  credentials: Credentials,
  net: NetworkDeps,
  options: CatalogOptions = {},
): Promise<VoiceOption[]> {
  const url = (root: string, path: string) => withOrigin(joinUrl(root, path), options.baseUrl);
  switch (provider) {
    case "openai":
      return OPENAI_VOICES.map((id) => ({ id, name: id[0]?.toUpperCase() + id.slice(1) }));
    case "local":
      return LOCAL_VOICES;
    case "elevenlabs": {
      const { root, auth } = SPEECH_VENDORS.elevenlabs;
      const body = await vendorJson<{ voices?: { voice_id: string; name: string }[] }>(
        { provider, url: url(root, "v1/voices"), headers: auth(requireField(provider, credentials, "api_key")) },
        net,
      );
      return (body.voices ?? []).map((v) => ({ id: v.voice_id, name: v.name }));
    }
    case "cartesia":
      return cartesiaVoices(credentials, net, url);
    case "deepgram": {
      const { root, auth } = SPEECH_VENDORS.deepgram;
      const body = await vendorJson<DeepgramModels>(
        { provider, url: url(root, "v1/models"), headers: auth(requireField(provider, credentials, "api_key")) },
        net,
      );
      return deepgramVoices(body, options.model);
    }
    case "playht":
      return playhtVoices(credentials, net, url);
    case "rime-ai": {
      // The voice catalog is public: no key needed to browse it.
      const body = await vendorJson<RimeCatalog>(
        { provider, url: url(SPEECH_VENDORS["rime-ai"].root, "data/voices/all-v2.json") },
        net,
      );
      return rimeVoices(body, options.model);
    }
    case "neuphonic": {
      const { root, auth } = SPEECH_VENDORS.neuphonic;
      const body = await vendorJson<{ data?: { voices?: NeuphonicVoice[] } }>(
        { provider, url: url(root, "voices"), headers: auth(requireField(provider, credentials, "api_key")) },
        net,
      );
      return (body.data?.voices ?? []).map((v) => ({
        id: v.voice_id ?? v.id ?? "",
        name: v.name ?? v.voice_name ?? "",
      }));
    }
  }
}

type UrlOf = (root: string, path: string) => string;

async function cartesiaVoices(credentials: Credentials, net: NetworkDeps, url: UrlOf): Promise<VoiceOption[]> {
  const { root, auth } = SPEECH_VENDORS.cartesia;
  const headers = auth(requireField("cartesia", credentials, "api_key"));
  const voices: VoiceOption[] = [];
  let after: string | undefined;
  // The list is paginated by cursor; ten pages of a hundred is far more than anyone picks from.
  for (let page = 0; page < 10; page++) {
    const query = `voices?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
    const body = await vendorJson<CartesiaPage | { id: string; name: string }[]>(
      { provider: "cartesia", url: url(root, query), headers },
      net,
    );
    const data = Array.isArray(body) ? body : (body.data ?? []);
    voices.push(...data.map((v) => ({ id: v.id, name: v.name })));
    if (Array.isArray(body) || !body.has_more || data.length === 0) break;
    after = data.at(-1)?.id;
  }
  return voices;
}

interface CartesiaPage {
  data?: { id: string; name: string }[];
  has_more?: boolean;
}

export interface DeepgramModels {
  stt?: { name?: string; canonical_name?: string; architecture?: string }[];
  tts?: { name?: string; canonical_name?: string; architecture?: string; languages?: string[] }[];
}

function deepgramVoices(body: DeepgramModels, model?: string): VoiceOption[] {
  const seen = new Set<string>();
  const voices: VoiceOption[] = [];
  for (const entry of body.tts ?? []) {
    const id = entry.canonical_name;
    if (!id || seen.has(id) || (model && !id.startsWith(`${model}-`))) continue;
    seen.add(id);
    const language = entry.languages?.[0];
    const name = capitalize(entry.name ?? id);
    voices.push({ id, name: language ? `${name} (${language})` : name });
  }
  return voices;
}

async function playhtVoices(credentials: Credentials, net: NetworkDeps, url: UrlOf): Promise<VoiceOption[]> {
  const headers = playhtHeaders(credentials);
  const stock = await vendorJson<{ id: string; name: string }[]>(
    { provider: "playht", url: url(PLAYHT_ROOT, "api/v2/voices"), headers },
    net,
  );
  // Cloned voices live in a second list; an account without any answers with an empty one.
  const cloned = await vendorJson<{ id: string; name: string }[]>(
    { provider: "playht", url: url(PLAYHT_ROOT, "api/v2/cloned-voices"), headers },
    net,
  ).catch(() => []);
  return [...cloned, ...stock].map((v) => ({ id: v.id, name: v.name }));
}

/** `{ model: { language: [speaker] } }`, or the older `{ model: [speaker] }`. */
type RimeCatalog = Record<string, Record<string, string[]> | string[]>;

function rimeVoices(catalog: RimeCatalog, model?: string): VoiceOption[] {
  const seen = new Map<string, VoiceOption>();
  for (const [modelId, voices] of Object.entries(catalog)) {
    if (model && modelId !== model) continue;
    const byLanguage = Array.isArray(voices) ? { "": voices } : voices;
    for (const [language, speakers] of Object.entries(byLanguage)) {
      for (const speaker of speakers) {
        if (seen.has(speaker)) continue;
        seen.set(speaker, {
          id: speaker,
          name: language ? `${capitalize(speaker)} (${language})` : capitalize(speaker),
        });
      }
    }
  }
  return [...seen.values()];
}

interface NeuphonicVoice {
  voice_id?: string;
  id?: string;
  name?: string;
  voice_name?: string;
}

function capitalize(text: string): string {
  return text ? text[0]?.toUpperCase() + text.slice(1) : text;
}
