// The WebRTC VAD's Emscripten build ships JavaScript without type declarations; this describes the parts used.

declare module "@echogarden/fvad-wasm" {
  export interface FvadModule {
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    _fvad_process(handle: number, samples: number, length: number): number;
    _fvad_reset(handle: number): void;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HEAP16: Int16Array;
  }
  const init: () => Promise<FvadModule>;
  export default init;
}
