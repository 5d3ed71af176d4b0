/** Spec §4/§5 rules for a provider's fetched model and voice options, shared by every picker. */

export interface OptionItem {
  value: string;
  label: string;
  /** A voice clone of this workspace (the server merges them into the lists of the vendors that clone). */
  isCustom?: boolean;
}

export const PROVIDER_REQUIRED = "Provider is required to fetch voices and models.";

/** Spec §5: voices and models can only be loaded for a named provider. */
export function requireProvider(provider: string | undefined | null): string {
  const trimmed = provider?.trim();
  if (!trimmed) throw new Error(PROVIDER_REQUIRED);
  return trimmed;
}

/**
 * Spec §4: when fetched options do not contain the current value, the first option is selected.
 * Returns the value to switch to, or null when nothing needs to change (or there is nothing to pick).
 */
export function firstIfMissing(current: string | undefined, options: readonly OptionItem[]): string | null {
  const first = options[0];
  if (!first) return null;
  return options.some((o) => o.value === current) ? null : first.value;
}

/** Issue 11: only an empty field takes the first option; any value already there is kept. */
export function firstIfEmpty(current: string | undefined, options: readonly OptionItem[]): string | null {
  if (current?.trim()) return null;
  return options[0]?.value ?? null;
}
