import { z } from "zod";

/**
 * The credential fields a provider asks for on the Integrations page, and the builders descriptors
 * write them with. Below the descriptors: integrations.ts lists what the descriptors declare here.
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

export const credential = (
  name: string,
  label: string,
  options: Partial<Omit<CredentialField, "name" | "label">> = {},
): CredentialField => ({
  name,
  label,
  secret: options.secret ?? false,
  optional: options.optional ?? false,
  url: options.url ?? false,
});
export const apiKey = credential("api_key", "API key", { secret: true });

/** The vendor's API at another address (a regional edge, a local double); its public API when empty. */
export const apiBaseUrl = credential("base_url", "API base URL", { optional: true, url: true });

/** A vendor reached with one API key, which the server may also hold for every workspace in `variable`. */
export const apiKeyCredentials = <const V extends string>(variable: V) =>
  ({ credentials: [apiKey], env: { api_key: variable } }) as const;
