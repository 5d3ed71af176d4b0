import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeDeepgramSpeak } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { DeepgramTts } from "./tts.ts";

const provider = (baseUrl: string, apiKey: string) =>
  new DeepgramTts({ apiKey, config: TTS_DEFAULT_CONFIG.deepgram, net: defaultNetwork(), baseUrl });
const checkRequest = (request: Parameters<Parameters<typeof describeTts>[0]["checkRequest"]>[0]) => {
  expect(request.headers.authorization).toBe("Token test-key");
  expect(Object.fromEntries(request.url.searchParams)).toEqual({
    model: "aura-2-thalia-en",
    encoding: "linear16",
    sample_rate: "16000",
    container: "none",
  });
  expect(jsonBody(request)).toEqual({ text: "Hello there." });
};

describeTts({ name: "Deepgram Aura", start: startFakeDeepgramSpeak, provider, sampleRate: 16_000, checkRequest });

// Aura's REST default container is WAV: a header that slips through must not be played as audio.
describeTts({
  name: "Deepgram Aura with a WAV header",
  start: (options) => startFakeDeepgramSpeak({ ...options, wavHeader: true }),
  provider,
  sampleRate: 16_000,
  checkRequest,
});
