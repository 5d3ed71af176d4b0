import type { BuiltinVoice } from "./types.ts";

/** A built-in voice, as descriptors list them. */
export const v = (id: string, name: string): BuiltinVoice => ({ id, name });
