import { MediaStreamProvider, TtsProviderConfig } from "@parley/contract";
import { EspeakTts, loadTelephony } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";

/**
 * What the first phone call of a fresh process would otherwise load while its caller waits for the
 * greeting: the carriers' adapters (module imports) and the local voice's WebAssembly engine (one
 * instance per process, compiled on first use). Loaded once the server listens, in the background:
 * readiness never waits for it, and a failure only means the first call loads it as before.
 */
export async function warmPhoneCalls(log: FastifyBaseLogger): Promise<void> {
  const started = performance.now();
  try {
    await Promise.all(MediaStreamProvider.options.map((provider) => loadTelephony(provider)));
    const voice = new EspeakTts(TtsProviderConfig.parse({ model: "espeak-ng", voice: "en-us" }));
    for await (const _chunk of voice.synthesize("Hello.")) {
      // Synthesising one word is what compiles and starts the engine; the audio is not needed.
    }
    log.info({ ms: Math.round(performance.now() - started) }, "phone calls warmed up");
  } catch (error) {
    log.warn({ err: error }, "warming up for phone calls failed: the first call loads what it needs itself");
  }
}
