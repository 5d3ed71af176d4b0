import { z } from "zod";

/**
 * Integrations: a workspace's own credentials for each provider it uses (language models,
 * speech, voices, telephony, messaging). The catalog says which fields each provider needs and
 * which of them are secrets (stored encrypted, shown masked).
 */

export const IntegrationKind = z.enum(["llm", "stt", "tts", "telephony", "messaging"]);
export type IntegrationKind = z.infer<typeof IntegrationKind>;

export const CredentialField = z.object({
  name: z.string(),
  label: z.string(),
  /** Secrets are write-only: responses show them masked (`sk-…abcd`). */
  secret: z.boolean(),
  optional: z.boolean(),
  /** A URL field is checked to be http(s). */
  url: z.boolean(),
});
export type CredentialField = z.infer<typeof CredentialField>;

export interface IntegrationProviderInfo {
  id: string;
  label: string;
  /** The main use, for grouping on the page. */
  kind: IntegrationKind;
  /** Every use: OpenAI, for one, serves language model, transcription and voices. */
  kinds: IntegrationKind[];
  fields: CredentialField[];
}

const field = (name: string, label: string, options: Partial<Omit<CredentialField, "name" | "label">> = {}) => ({
  name,
  label,
  secret: options.secret ?? false,
  optional: options.optional ?? false,
  url: options.url ?? false,
});
const apiKey = field("api_key", "API key", { secret: true });
const provider = (id: string, label: string, kinds: IntegrationKind[], fields = [apiKey]) => {
  const [kind = "llm"] = kinds;
  return { id, label, kind, kinds, fields };
};

export const INTEGRATION_CATALOG = [
  provider("openai", "OpenAI", ["llm", "stt", "tts"]),
  provider("anthropic", "Anthropic", ["llm"]),
  provider("google", "Google Gemini", ["llm"]),
  provider("groq", "Groq", ["llm", "stt"]),
  provider("deepseek", "DeepSeek", ["llm"]),
  provider("mistral", "Mistral", ["llm"]),
  provider("openrouter", "OpenRouter", ["llm"]),
  provider("azure-openai", "Azure OpenAI", ["llm"], [apiKey, field("endpoint", "Endpoint", { url: true })]),
  provider(
    "openai-compatible",
    "OpenAI-compatible server",
    ["llm"],
    [field("base_url", "Base URL", { url: true }), field("api_key", "API key", { secret: true, optional: true })],
  ),
  provider("deepgram", "Deepgram", ["stt", "tts"]),
  provider("assembly-ai", "AssemblyAI", ["stt"]),
  provider("speechmatics", "Speechmatics", ["stt"]),
  provider("hamsa", "Hamsa", ["stt"]),
  provider("elevenlabs", "ElevenLabs", ["tts"]),
  provider("cartesia", "Cartesia", ["tts"]),
  provider("playht", "PlayHT", ["tts"], [apiKey, field("user_id", "User ID")]),
  provider("rime-ai", "Rime", ["tts"]),
  provider("neuphonic", "Neuphonic", ["tts"]),
  provider(
    "twilio",
    "Twilio",
    ["telephony"],
    [field("account_sid", "Account SID"), field("auth_token", "Auth token", { secret: true })],
  ),
  provider("telnyx", "Telnyx", ["telephony"]),
  provider(
    "vonage",
    "Vonage",
    ["telephony"],
    [field("api_key", "API key"), field("api_secret", "API secret", { secret: true })],
  ),
  provider(
    "plivo",
    "Plivo",
    ["telephony"],
    [field("auth_id", "Auth ID"), field("auth_token", "Auth token", { secret: true })],
  ),
  provider(
    "whatsapp",
    "WhatsApp Business",
    ["messaging"],
    [
      field("access_token", "Access token", { secret: true }),
      field("phone_number_id", "Phone number ID"),
      field("business_account_id", "Business account ID", { optional: true }),
    ],
  ),
] as const satisfies readonly IntegrationProviderInfo[];

export type IntegrationProviderId = (typeof INTEGRATION_CATALOG)[number]["id"];
export const INTEGRATION_PROVIDERS = INTEGRATION_CATALOG.map((p) => p.id) as IntegrationProviderId[];

export function integrationProvider(id: string): IntegrationProviderInfo | undefined {
  return INTEGRATION_CATALOG.find((p) => p.id === id);
}

/**
 * Checks credentials against a provider's fields: every required field present, no unknown
 * field, URL fields http(s). Returns the first problem, or null.
 */
export function credentialsProblem(info: IntegrationProviderInfo, credentials: Record<string, string>): string | null {
  const known = new Set(info.fields.map((f) => f.name));
  const unknown = Object.keys(credentials).find((k) => !known.has(k));
  if (unknown) return `${info.label} has no field "${unknown}".`;
  for (const f of info.fields) {
    const value = credentials[f.name]?.trim() ?? "";
    if (!value) {
      if (f.optional) continue;
      return `${f.label} is required.`;
    }
    if (value.length > 4000) return `${f.label} is too long.`;
    if (f.url && !/^https?:\/\/[^\s]+$/i.test(value)) return `${f.label} must be an http(s) URL.`;
  }
  return null;
}

export const IntegrationTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
});
export type IntegrationTestResult = z.infer<typeof IntegrationTestResult>;

export const Integration = z.object({
  provider: z.string(),
  label: z.string(),
  kind: IntegrationKind,
  kinds: z.array(IntegrationKind),
  fields: z.array(CredentialField),
  /** The workspace stored its own credentials. */
  configured: z.boolean(),
  /** Where calls get credentials from: the workspace's, the server's environment, or nowhere yet. */
  source: z.enum(["workspace", "environment"]).nullable(),
  /** The stored values by field: secrets masked, the rest as entered. */
  values: z.record(z.string(), z.string()),
  last_test: IntegrationTestResult.extend({ tested_at: z.string() }).nullable(),
  updated_at: z.string().nullable(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationsResponse = z.object({ integrations: z.array(Integration) });
export type IntegrationsResponse = z.infer<typeof IntegrationsResponse>;

/** PUT body. A secret left empty keeps the stored one, so a form can show it masked and save the rest. */
export const SaveIntegrationBody = z.object({
  credentials: z.record(z.string(), z.string().max(4000)),
});
export type SaveIntegrationBody = z.infer<typeof SaveIntegrationBody>;

/** POST …/test body: optional credentials to try before saving; without them the saved ones are tested. */
export const TestIntegrationBody = z
  .object({ credentials: z.record(z.string(), z.string().max(4000)).optional() })
  .nullish();
export type TestIntegrationBody = z.infer<typeof TestIntegrationBody>;

/** How a secret is shown: its first three and last four characters (`sk-…abcd`). */
export function maskSecret(value: string): string {
  if (value.length <= 8) return "••••";
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}
