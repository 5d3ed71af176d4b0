import { SileroVad } from "./silero-vad.ts";
import { EnergyVad, type VoiceActivityModel } from "./voice-activity.ts";
import { WebRtcVad } from "./webrtc-vad.ts";

let warned = false;

function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(message, { code: "PARLEY_VAD_FALLBACK" });
}

/**
 * The best voice activity detector available: Silero (ONNX), else WebRTC VAD (WASM) when the
 * ONNX runtime cannot load, else a level detector.
 */
export async function loadVad(): Promise<VoiceActivityModel> {
  try {
    return await SileroVad.create();
  } catch (error) {
    warnOnce(`Silero VAD unavailable (${error instanceof Error ? error.message : String(error)}); using WebRTC VAD`);
  }
  try {
    return await WebRtcVad.create();
  } catch {
    return new EnergyVad();
  }
}
