import { PROVIDER_ENV_VARIABLES, type ProviderEnvVariable } from "@parley/contract";
import { z } from "zod";

/**
 * Server-wide provider credentials from the environment: each provider descriptor names the
 * variable behind each of its credential fields. An operator who sets a provider's key once serves
 * every workspace that has not stored its own (see resolveCredentials).
 */
export type ProviderKeyVariable = ProviderEnvVariable;
export type ProviderKeys = Partial<Record<ProviderKeyVariable, string>>;

const optionalKey = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** The zod shape config.ts spreads into its environment schema. */
export const providerKeyVariables = Object.fromEntries(PROVIDER_ENV_VARIABLES.map((name) => [name, optionalKey])) as {
  [K in ProviderKeyVariable]: typeof optionalKey;
};

export function pickProviderKeys(env: { [K in ProviderKeyVariable]?: string | undefined }): ProviderKeys {
  const keys: ProviderKeys = {};
  for (const name of PROVIDER_ENV_VARIABLES) {
    const value = env[name];
    if (value) keys[name] = value;
  }
  return keys;
}
