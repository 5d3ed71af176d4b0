import { CLONE_SERVICES, type VoiceClone, type VoiceOption } from "@parley/contract";

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
