import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import type { ProviderKeys, ProviderKeyVariable } from "./env-keys.ts";
import { type IntegrationRow, integrations } from "./schema.ts";

/** Which environment variable backs each credential field, for the server-wide fallback. */
const ENV_FIELDS: Record<string, Record<string, ProviderKeyVariable>> = {
  openai: { api_key: "OPENAI_API_KEY" },
  anthropic: { api_key: "ANTHROPIC_API_KEY" },
  google: { api_key: "GEMINI_API_KEY" },
  groq: { api_key: "GROQ_API_KEY" },
  deepseek: { api_key: "DEEPSEEK_API_KEY" },
  mistral: { api_key: "MISTRAL_API_KEY" },
  openrouter: { api_key: "OPENROUTER_API_KEY" },
  "azure-openai": { api_key: "AZURE_OPENAI_API_KEY", endpoint: "AZURE_OPENAI_ENDPOINT" },
  deepgram: { api_key: "DEEPGRAM_API_KEY" },
  "assembly-ai": { api_key: "ASSEMBLYAI_API_KEY" },
  speechmatics: { api_key: "SPEECHMATICS_API_KEY" },
  hamsa: { api_key: "HAMSA_API_KEY" },
  elevenlabs: { api_key: "ELEVENLABS_API_KEY" },
  cartesia: { api_key: "CARTESIA_API_KEY" },
  playht: { api_key: "PLAYHT_API_KEY", user_id: "PLAYHT_USER_ID" },
  "rime-ai": { api_key: "RIME_API_KEY" },
  neuphonic: { api_key: "NEUPHONIC_API_KEY" },
  twilio: { account_sid: "TWILIO_ACCOUNT_SID", auth_token: "TWILIO_AUTH_TOKEN" },
  telnyx: { api_key: "TELNYX_API_KEY" },
  vonage: { api_key: "VONAGE_API_KEY", api_secret: "VONAGE_API_SECRET" },
  plivo: { auth_id: "PLIVO_AUTH_ID", auth_token: "PLIVO_AUTH_TOKEN" },
  whatsapp: { access_token: "WHATSAPP_ACCESS_TOKEN", phone_number_id: "WHATSAPP_PHONE_NUMBER_ID" },
};

/** The server's environment credentials for a provider, when every variable it needs is set. */
export function environmentCredentials(keys: ProviderKeys, provider: string): Record<string, string> | null {
  const fields = ENV_FIELDS[provider];
  if (!fields) return null;
  const credentials: Record<string, string> = {};
  for (const [field, variable] of Object.entries(fields)) {
    const value = keys[variable];
    if (!value) return null;
    credentials[field] = value;
  }
  return credentials;
}

export async function findIntegration(db: Executor, workspaceId: string, provider: string) {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.provider, provider)));
  return row;
}

export function openCredentials(ctx: Pick<AppContext, "secrets">, row: IntegrationRow): Record<string, string> {
  return JSON.parse(ctx.secrets.decrypt(row.credentials)) as Record<string, string>;
}

/**
 * The credentials a call in this workspace uses for a provider: the workspace's own, else the
 * server-wide ones from the environment, else null (the provider is not set up).
 */
export async function resolveCredentials(
  ctx: AppContext,
  workspaceId: string,
  provider: string,
): Promise<Record<string, string> | null> {
  const row = await findIntegration(ctx.db, workspaceId, provider);
  if (row) return openCredentials(ctx, row);
  return environmentCredentials(ctx.config.providerKeys, provider);
}
