import type { CredentialField, IntegrationProviderInfo } from "@parley/contract";
import { movesHost } from "../../lib/secret-headers.ts";

/**
 * The first URL field the given values move to another host, or undefined. A URL field stored
 * empty means the vendor's own hosts (its public API, for some vendors more than one host, so no
 * single default origin to compare with): any URL given for it is another host.
 */
function movedUrlField(
  info: IntegrationProviderInfo,
  stored: Record<string, string>,
  given: Record<string, string>,
): CredentialField | undefined {
  return info.fields.find((f) => {
    const next = given[f.name]?.trim();
    if (!f.url || !next) return false;
    const before = stored[f.name]?.trim();
    return !before || movesHost(before, next);
  });
}

/** A refusal: the sentence, and the credential field it is about (the secret to type again). */
export interface CredentialsProblem {
  problem: string;
  field: string;
}

export type MergedCredentials = { credentials: Record<string, string> } | CredentialsProblem;

/**
 * Given values over the stored ones; an empty value keeps what is stored, so a form showing masked
 * secrets can save its other fields. A stored secret is only ever sent to the host it was saved
 * with: when a URL field moves to another host (the stored one, or the vendor's own when none is
 * stored), every stored secret must be typed again.
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
      field: kept.name,
    };
  }
  return { credentials: merged };
}
