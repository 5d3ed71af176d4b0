import type { TtsAudioBody } from "@parley/contract";
import { api } from "../../lib/http-client.ts";
import { PROVIDER_REQUIRED } from "../../lib/provider-options.ts";

export const NO_WORKSPACE = "No workspace found. Please ensure you are logged in.";

export interface VoiceSample {
  /** An object URL of the WAV; revoke it when done. */
  url: string;
  durationSeconds: number;
  provider: string;
  model: string;
  voice: string;
}

/** Synthesizes a sample through POST /tts/audio (spec §7); needs the current workspace (§5). */
export async function previewVoice(
  body: Omit<TtsAudioBody, "workspace_id"> & { workspace_id: string | null | undefined },
  send: typeof api.send = api.send,
): Promise<VoiceSample> {
  if (!body.workspace_id) throw new Error(NO_WORKSPACE);
  if (!body.provider) throw new Error(PROVIDER_REQUIRED);
  const response = await send("/tts/audio", { method: "POST", body });
  const blob = await response.blob();
  return {
    url: URL.createObjectURL(blob),
    durationSeconds: Number(response.headers.get("x-duration") ?? 0),
    provider: response.headers.get("x-provider") ?? body.provider,
    model: response.headers.get("x-model") ?? body.model,
    voice: response.headers.get("x-voice") ?? body.voice,
  };
}
