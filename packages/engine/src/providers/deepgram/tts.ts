import { httpTts } from "../shared/http-tts.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** Deepgram Aura speech through `POST /v1/speak`, streamed as headerless linear16. */
export const DeepgramTts = httpTts("deepgram", "Deepgram", (text, { config, apiKey, baseUrl }) => {
  const url = vendorUrl("https://api.deepgram.com", "/v1/speak", baseUrl);
  // Aura voices are models ("aura-2-thalia-en"); the REST default container is WAV, so ask for none.
  url.searchParams.set("model", config.voice);
  url.searchParams.set("encoding", "linear16");
  url.searchParams.set("sample_rate", String(config.sampleRate));
  url.searchParams.set("container", "none");
  return {
    url: url.toString(),
    headers: { Authorization: `Token ${apiKey}` },
    json: { text },
    sampleRate: config.sampleRate,
  };
});
