import { CLONE_SERVICES, type VoiceClone, type VoiceOption } from "@parley/contract";

/** An entry of a model or voice list fetched for a provider. */
export interface OptionItem {
  value: string;
  label: string;
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

export const PROVIDER_REQUIRED = "Provider is required to fetch voices and models.";

/** Spec §5: voices and models can only be loaded for a named provider. */
export function requireProvider(provider: string | undefined | null): string {
  const trimmed = provider?.trim();
  if (!trimmed) throw new Error(PROVIDER_REQUIRED);
  return trimmed;
}

type CloneRef = Pick<VoiceClone, "name" | "service_name" | "service_voice_id">;

/** The provider's voices with the workspace's clones of that provider added (each voice once). */
export function mergeClones(
  provider: string,
  voices: readonly VoiceOption[],
  clones: readonly CloneRef[],
): VoiceOption[] {
  if (!(CLONE_SERVICES as readonly string[]).includes(provider)) return [...voices];
  const known = new Set(voices.map((v) => v.id));
  const extra = clones
    .filter((c) => c.service_name === provider && !known.has(c.service_voice_id))
    .map((c) => ({ id: c.service_voice_id, name: c.name, isCustom: true }));
  return [...voices, ...extra];
}
