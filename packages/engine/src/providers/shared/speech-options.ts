import type { NetworkDeps } from "../types.ts";
import type { ProviderOptions } from "../vendor-adapters.ts";
import { requireSpeechKey } from "./credentials.ts";

/** What a cloud speech adapter is built from. */
export interface CloudProviderOptions<Config> {
  apiKey: string;
  config: Config;
  net: NetworkDeps;
  /** Replaces the vendor's scheme and host (tests point this at a local server). */
  baseUrl?: string;
}

/** A cloud speech adapter's options from the stage options: the key is required, the rest passes through. */
export function cloudOptions<Config>(id: string, options: ProviderOptions<Config>): CloudProviderOptions<Config> {
  return {
    apiKey: requireSpeechKey(id, options.credentials),
    config: options.config,
    net: options.net,
    baseUrl: options.baseUrl,
  };
}
