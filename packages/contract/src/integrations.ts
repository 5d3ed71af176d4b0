import { z } from "zod";
import { CredentialField, IntegrationKind } from "./providers/credentials.ts";
import { PROVIDERS } from "./providers/index.ts";

/**
 * Integrations: a workspace's own credentials for each provider it uses (language models,
 * speech, voices, telephony, messaging). The catalog says which fields each provider needs and
 * which of them are secrets (stored encrypted, shown masked).
 */

export interface IntegrationProviderInfo {
  id: string;
  label: string;
  /** The main use, for grouping on the page. */
  kind: IntegrationKind;
  /** Every use: one vendor may serve language model, transcription and voices. */
  kinds: IntegrationKind[];
  fields: CredentialField[];
}

/** The providers on the Integrations page (those with credentials), in display order. */
export const INTEGRATION_CATALOG: readonly IntegrationProviderInfo[] = PROVIDERS.flatMap((p) => {
  const [kind, ...rest] = p.integrationKinds;
  if (!kind) return [];
  return [{ id: p.id, label: p.label, kind, kinds: [kind, ...rest], fields: [...p.credentials] }];
});

type OnIntegrationsPage = Extract<
  (typeof PROVIDERS)[number],
  { readonly integrationKinds: readonly [IntegrationKind, ...IntegrationKind[]] }
>;
export type IntegrationProviderId = OnIntegrationsPage["id"];
export const INTEGRATION_PROVIDERS: IntegrationProviderId[] = PROVIDERS.filter(
  (p): p is OnIntegrationsPage => p.integrationKinds.length > 0,
).map((p) => p.id);

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
  /** The workspace's stored credentials, as phone numbers and imports name them (integration_id); null when none are stored. */
  id: z.string().nullable(),
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

/**
 * How a secret is shown: never more than about a third of it, so a short secret stays unguessable.
 * Long keys keep their first three and last four characters (`sk-…abcd`) to tell them apart; from
 * 12 characters only the last four; anything shorter is dots.
 */
export function maskSecret(value: string): string {
  if (value.length < 12) return "••••";
  if (value.length < 20) return `…${value.slice(-4)}`;
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}
