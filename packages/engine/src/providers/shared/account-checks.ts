import { providerLabel } from "@parley/contract";
import type { NetworkDeps } from "../types.ts";
import type { AccountCheck, CatalogOptions, Credentials, ModelListing, VoiceOption } from "../vendor-adapters.ts";
import { requireKey } from "./credentials.ts";
import { vendorJson } from "./vendor-request.ts";
import { joinUrl, withOrigin } from "./vendor-url.ts";

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A language-model vendor's check: the models its key can use, counted. */
export function modelCountCheck(id: string, listing: ModelListing): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const models = new Set(await listing.list("llm", credentials, net, { baseUrl }));
    return `Connected to ${providerLabel(id)}. ${count(models.size, "model")} available.`;
  };
}

/** A voice vendor's check: the voices its key can use, counted. */
export function voiceCountCheck(
  id: string,
  listVoices: (credentials: Credentials, net: NetworkDeps, options: CatalogOptions) => Promise<VoiceOption[]>,
): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const voices = await listVoices(credentials, net, { baseUrl });
    return `Connected to ${providerLabel(id)}. ${count(voices.length, "voice")} available.`;
  };
}

/** A GET to a vendor path with its key's auth headers; only whether it succeeds matters, unless `describe` reads it. */
export function probeCheck(
  id: string,
  root: string,
  auth: (key: string) => Record<string, string>,
  path: string,
  describe?: (body: unknown) => string | undefined,
): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const headers = auth(requireKey(id, credentials));
    const body = await vendorJson<unknown>({
      provider: id,
      url: withOrigin(joinUrl(root, path), baseUrl),
      headers,
      net,
    });
    return describe?.(body) ?? `Connected to ${providerLabel(id)}.`;
  };
}
