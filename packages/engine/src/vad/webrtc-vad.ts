/// <reference path="./wasm-modules.d.ts" />
import type { FvadModule } from "@echogarden/fvad-wasm";
import type { VoiceActivityModel } from "./voice-activity.ts";

let wasm: Promise<FvadModule> | null = null;

/** The WebRTC detector (libfvad in WASM): light and dependable, but less discerning than Silero. */
export class WebRtcVad implements VoiceActivityModel {
  readonly name = "webrtc";
  private readonly buffer: number;

  private constructor(
    private readonly m: FvadModule,
    private readonly handle: number,
    private readonly frameSamples: number,
  ) {
    this.buffer = m._malloc(frameSamples * 2);
  }

  /** Loads the WASM module (once) and makes a detector; `mode` 0–3 trades misses for false alarms. */
  static async create(mode = 2, frameSamples = 320): Promise<WebRtcVad> {
    wasm ??= import("@echogarden/fvad-wasm").then((mod) => mod.default());
    const m = await wasm;
    const handle = m._fvad_new();
    if (!handle) throw new Error("fvad_new failed");
    m._fvad_set_mode(handle, mode);
    m._fvad_set_sample_rate(handle, 16_000);
    return new WebRtcVad(m, handle, frameSamples);
  }

  /** 1 for speech, 0 for not (WebRTC VAD gives a decision, not a probability). */
  process(frame: Int16Array): number {
    if (frame.length !== this.frameSamples) return 0;
    this.m.HEAP16.set(frame, this.buffer >> 1);
    return this.m._fvad_process(this.handle, this.buffer, frame.length) === 1 ? 1 : 0;
  }

  reset(): void {
    this.m._fvad_reset(this.handle);
  }

  close(): void {
    this.m._free(this.buffer);
    this.m._fvad_free(this.handle);
  }
}
