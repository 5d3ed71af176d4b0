import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeNeuphonic } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { NeuphonicTts } from "./tts.ts";

describeTts({
  name: "Neuphonic",
  start: startFakeNeuphonic,
  provider: (baseUrl, apiKey) =>
    new NeuphonicTts({ apiKey, config: TTS_DEFAULT_CONFIG.neuphonic, net: defaultNetwork(), baseUrl }),
  sampleRate: 16_000,
  checkRequest: (request) => {
    expect(request.url.pathname).toBe("/sse/speak/en");
    expect(request.headers["x-api-key"]).toBe("test-key");
    expect(jsonBody(request)).toEqual({
      text: "Hello there.",
      voice_id: "e564ba7e-aa8d-46a2-96a8-8dffedade48f",
      lang_code: "en",
      encoding: "pcm_linear",
      sampling_rate: 16000,
      speed: 1,
    });
  },
});
