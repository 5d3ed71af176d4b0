// The two Emscripten builds ship JavaScript without type declarations; these describe the parts used.

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

declare module "@echogarden/espeak-ng-emscripten" {
  export interface EspeakWorker {
    set_voice(voice: string): void;
    set_rate(wordsPerMinute: number): void;
    set_pitch(pitch: number): void;
    get_samplerate(): number;
    synthesize(text: string, callback: (samples: Int16Array | null, events: unknown[]) => void): void;
    list_voices(): { identifier: string; name: string; languages: { priority: number; name: string }[] }[];
  }
  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakWorker;
  }
  const init: () => Promise<EspeakModule>;
  export default init;
}
