import { byId, type StageInfo, stageLabel } from "./providers/derive.ts";
import type { BuiltinVoice } from "./providers/editor-options.ts";
import { TTS_DESCRIPTORS, type TtsProviderId } from "./providers/index.ts";

/**
 * Built-in voices, models and output encodings of every text-to-speech provider (from the provider
 * descriptors): real vendor voice ids, so an assistant works before anyone fetched the live list.
 * With a workspace key the server adds the vendor's own list (GET /voices/{provider}).
 */

export type { BuiltinVoice };

export interface TtsProviderInfo extends StageInfo {
  voices: BuiltinVoice[];
  encodings: string[];
  /** Voice clones of the workspace are merged into this provider's list. */
  supportsClones: boolean;
}

export const TTS_CATALOG: Record<TtsProviderId, TtsProviderInfo> = byId(TTS_DESCRIPTORS, (d) => ({
  label: stageLabel(d, d.tts),
  models: [...d.tts.models],
  voices: [...d.tts.voices],
  encodings: [...d.tts.encodings],
  needsKey: d.tts.needsKey,
  offline: d.tts.offline,
  supportsClones: d.tts.supportsClones,
}));
