import { z } from "zod";

/** Schema pieces the transcriber configs share (spec §3 fields). */

export const sttLanguage = z.string().trim().min(1).max(20);
export const sttWords = z.array(z.string().trim().min(1).max(100)).max(200);

/** Fields every transcriber config has: the model, the language and automatic detection. */
export const sttBaseShape = (model: string, language: string) => ({
  model: z.string().default(model),
  language: sttLanguage.default(language),
  detect_language: z.boolean().default(false),
});

/** The audio sample rate a transcriber is sent (the pipeline's 16 kHz unless set). */
export const sttSampleRate = z.number().int().positive().default(16000);
