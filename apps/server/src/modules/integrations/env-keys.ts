import { z } from "zod";

/**
 * Server-wide provider credentials from the environment. An operator who sets OPENAI_API_KEY once
 * serves every workspace that has not stored its own key (see resolveCredentials).
 */
export const PROVIDER_KEY_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "GROQ_API_KEY",
  "DEEPSEEK_API_KEY",
  "MISTRAL_API_KEY",
  "OPENROUTER_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_ENDPOINT",
  "DEEPGRAM_API_KEY",
  "ASSEMBLYAI_API_KEY",
  "SPEECHMATICS_API_KEY",
  "HAMSA_API_KEY",
  "ELEVENLABS_API_KEY",
  "CARTESIA_API_KEY",
  "PLAYHT_API_KEY",
  "PLAYHT_USER_ID",
  "RIME_API_KEY",
  "NEUPHONIC_API_KEY",
  "TWILIO_ACCOUNT_SID",
  "TWILIO_AUTH_TOKEN",
  "TELNYX_API_KEY",
  "VONAGE_API_KEY",
  "VONAGE_API_SECRET",
  "PLIVO_AUTH_ID",
  "PLIVO_AUTH_TOKEN",
  "WHATSAPP_ACCESS_TOKEN",
  "WHATSAPP_PHONE_NUMBER_ID",
] as const;
export type ProviderKeyVariable = (typeof PROVIDER_KEY_VARIABLES)[number];
export type ProviderKeys = Partial<Record<ProviderKeyVariable, string>>;

const optionalKey = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** The zod shape config.ts spreads into its environment schema. */
export const providerKeyVariables = Object.fromEntries(PROVIDER_KEY_VARIABLES.map((name) => [name, optionalKey])) as {
  [K in ProviderKeyVariable]: typeof optionalKey;
};

export function pickProviderKeys(env: { [K in ProviderKeyVariable]?: string | undefined }): ProviderKeys {
  const keys: ProviderKeys = {};
  for (const name of PROVIDER_KEY_VARIABLES) {
    const value = env[name];
    if (value) keys[name] = value;
  }
  return keys;
}
