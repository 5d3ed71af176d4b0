import { maskSecret } from "@parley/contract";
import type { SecretBox } from "./crypto.ts";

/**
 * Header maps that carry tokens (function webhooks, MCP servers): sealed at rest, masked in every
 * response, and sent only to the host they were saved with.
 */

export type HeaderMap = Record<string, string>;

export const sealHeaders = (secrets: SecretBox, headers: HeaderMap): string => secrets.encrypt(JSON.stringify(headers));

export function openHeaders(secrets: SecretBox, sealed: string): HeaderMap {
  const parsed: unknown = JSON.parse(secrets.decrypt(sealed));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export const maskHeaders = (headers: HeaderMap): HeaderMap =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskSecret(value)]));

/** Whether `next` points at another origin (scheme, host, port) than `before`. */
export function movesHost(before: string, next: string | undefined): boolean {
  if (next === undefined) return false;
  try {
    return new URL(before).origin !== new URL(next).origin;
  } catch {
    return before !== next;
  }
}

export const HEADERS_AGAIN =
  "Enter the header values again: saved header values are only sent to the URL they were saved with.";

/**
 * The headers to store after an update. A value sent back masked, as responses show it, keeps the
 * stored one, but not when the URL moves to another host: then every stored value must be typed
 * again (`problem`). Without `given` the stored headers stay.
 */
export function updatedHeaders(
  stored: HeaderMap,
  given: HeaderMap | undefined,
  urlMoved: boolean,
): { headers: HeaderMap } | { problem: string } {
  const hasStored = Object.keys(stored).length > 0;
  if (!given) return urlMoved && hasStored ? { problem: HEADERS_AGAIN } : { headers: stored };
  const headers: HeaderMap = {};
  for (const [name, value] of Object.entries(given)) {
    const old = stored[name];
    const keepsStored = old !== undefined && value === maskSecret(old);
    if (keepsStored && urlMoved) return { problem: HEADERS_AGAIN };
    headers[name] = keepsStored ? old : value;
  }
  return { headers };
}
