import { LLM_LABELS } from "../llm/vendors.ts";
import { ProviderError } from "../providers/provider-error.ts";

export type Credentials = Record<string, string> | null;

/** Every provider the catalog and the Integrations page know, by id, with its display name. */
export const PROVIDER_LABELS: Record<string, string> = {
  ...LLM_LABELS,
  "openai-compatible": "OpenAI-compatible endpoint",
  elevenlabs: "ElevenLabs",
  cartesia: "Cartesia",
  deepgram: "Deepgram",
  playht: "PlayHT",
  "rime-ai": "Rime",
  neuphonic: "Neuphonic",
  "assembly-ai": "AssemblyAI",
  speechmatics: "Speechmatics",
  hamsa: "Hamsa",
  local: "Local (on this server)",
  twilio: "Twilio",
  telnyx: "Telnyx",
  vonage: "Vonage",
  plivo: "Plivo",
  whatsapp: "WhatsApp",
};

export function labelOf(provider: string): string {
  return PROVIDER_LABELS[provider] ?? provider;
}

/** Human names of the credential fields, for "missing …" messages. */
const FIELD_NAMES: Record<string, string> = {
  api_key: "API key",
  api_secret: "API secret",
  user_id: "user ID",
  endpoint: "endpoint",
  base_url: "base URL",
  account_sid: "Account SID",
  auth_token: "auth token",
  auth_id: "Auth ID",
  access_token: "access token",
  phone_number_id: "phone number ID",
};

/** Reads a required credential field, or fails the way the Integrations page can show. */
export function requireField(provider: string, credentials: Credentials, field: string): string {
  const value = credentials?.[field]?.trim();
  if (value) return value;
  const name = FIELD_NAMES[field] ?? field;
  throw new ProviderError(provider, `No ${name} for ${labelOf(provider)}. Add one on the Integrations page.`, false);
}

/** Cartesia routes every request by this dated API version. */
export const CARTESIA_VERSION = "2025-04-16";

/** The documented REST roots and auth headers of the speech vendors. */
export const SPEECH_VENDORS = {
  openai: { root: "https://api.openai.com/v1", auth: (key: string) => ({ authorization: `Bearer ${key}` }) },
  groq: { root: "https://api.groq.com/openai/v1", auth: (key: string) => ({ authorization: `Bearer ${key}` }) },
  elevenlabs: { root: "https://api.elevenlabs.io", auth: (key: string) => ({ "xi-api-key": key }) },
  cartesia: {
    root: "https://api.cartesia.ai",
    auth: (key: string) => ({ "x-api-key": key, "cartesia-version": CARTESIA_VERSION }),
  },
  deepgram: { root: "https://api.deepgram.com", auth: (key: string) => ({ authorization: `Token ${key}` }) },
  "rime-ai": { root: "https://users.rime.ai", auth: (key: string) => ({ authorization: `Bearer ${key}` }) },
  neuphonic: { root: "https://api.neuphonic.com", auth: (key: string) => ({ "x-api-key": key }) },
  "assembly-ai": { root: "https://api.assemblyai.com", auth: (key: string) => ({ authorization: key }) },
  speechmatics: {
    root: "https://asr.api.speechmatics.com",
    auth: (key: string) => ({ authorization: `Bearer ${key}` }),
  },
  hamsa: { root: "https://api.tryhamsa.com", auth: (key: string) => ({ authorization: `Token ${key}` }) },
} as const;
export type SpeechVendor = keyof typeof SPEECH_VENDORS;

export const PLAYHT_ROOT = "https://api.play.ht";

/** PlayHT authenticates with the secret key and the account's user id together. */
export function playhtHeaders(credentials: Credentials): Record<string, string> {
  return {
    authorization: requireField("playht", credentials, "api_key"),
    "x-user-id": requireField("playht", credentials, "user_id"),
  };
}
