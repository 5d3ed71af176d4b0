// eSpeak NG's Emscripten build ships JavaScript without type declarations; this describes the parts used.

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
