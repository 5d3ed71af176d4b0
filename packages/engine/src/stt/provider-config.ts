import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";

/** What every cloud adapter is built from. */
export interface CloudProviderOptions<Config> {
  apiKey: string;
  config: Config;
  net: NetworkDeps;
  /** Replaces the vendor's scheme and host (tests point this at a local server). */
  baseUrl?: string;
}

/** The part of a zod schema used here (keeps the engine free of a direct zod dependency). */
export interface ConfigSchema<Config> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Config }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** Validates an adapter's configuration with its contract schema, filling in the defaults. */
export function parseProviderConfig<Config>(provider: string, schema: ConfigSchema<Config>, config: unknown): Config {
  const parsed = schema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join(".")}: ` : "";
  throw new ProviderError(provider, `invalid configuration: ${where}${issue?.message ?? "unknown problem"}`, false);
}

/** `defaultOrigin` + `path`, or `baseUrl` + `path` when a base URL overrides the vendor host. */
export function vendorUrl(defaultOrigin: string, path: string, baseUrl?: string): URL {
  const origin = (baseUrl ?? defaultOrigin).replace(/\/+$/, "");
  return new URL(`${origin}${path}`);
}

/** The missing-credential error the Integrations page resolves. */
export function missingKeyError(provider: string): ProviderError {
  return new ProviderError(provider, `No API key for ${provider}. Add one on the Integrations page.`, false);
}
