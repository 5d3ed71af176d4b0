import type { CredentialField, IntegrationProviderInfo } from "@parley/contract";
import { movesHost } from "../../lib/secret-headers.ts";

/** The first URL field the given values move to another host, or undefined. */
function movedUrlField(
  info: IntegrationProviderInfo,
  stored: Record<string, string>,
  given: Record<string, string>,
): CredentialField | undefined {
  return info.fields.find((f) => {
    const next = given[f.name]?.trim();
    const before = stored[f.name];
    return f.url && next && before !== undefined && movesHost(before, next);
  });
}

export type MergedCredentials = { credentials: Record<string, string> } | { problem: string };

/**
 * Given values over the stored ones; an empty value keeps what is stored, so a form showing masked
 * secrets can save its other fields. A stored secret is only ever sent to the host it was saved
 * with: when a URL field moves to another host, every stored secret must be typed again.
 */
export function mergeCredentials(
  info: IntegrationProviderInfo,
  stored: Record<string, string>,
  given: Record<string, string>,
): MergedCredentials {
  const moved = movedUrlField(info, stored, given);
  const merged: Record<string, string> = { ...stored };
  for (const [name, value] of Object.entries(given)) {
    if (value.trim()) merged[name] = value.trim();
  }
  if (!moved) return { credentials: merged };
  const kept = info.fields.find((f) => f.secret && stored[f.name] && !given[f.name]?.trim());
  if (kept) {
    return {
      problem: `Enter the ${kept.label} again: a saved secret is only sent to the ${moved.label} it was saved with.`,
    };
  }
  return { credentials: merged };
}
