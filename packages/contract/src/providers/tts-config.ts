import { z } from "zod";
import { PIPELINE_AUDIO } from "./stage-presets.ts";

/** The voice configuration every TTS provider shares (its defaults live in its descriptor). */
export const TtsProviderConfig = z.object({
  model: z.string().trim().min(1, "Model is required").max(200),
  voice: z.string().trim().min(1, "Voice is required").max(300),
  speed: z.number().min(0.25).max(4).default(PIPELINE_AUDIO.speed),
  language: z.string().trim().max(20).optional(),
  sampleRate: z.number().int().positive().default(PIPELINE_AUDIO.sampleRate),
  encoding: z.string().trim().max(40).optional(),
  emotion: z.string().trim().max(60).optional(),
  /** Vendor voice settings; a descriptor's `tts.settings` lists the ones its editor renders. */
  settings: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])).optional(),
});
export type TtsProviderConfig = z.infer<typeof TtsProviderConfig>;
