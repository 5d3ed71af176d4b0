import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../providers/default-network.ts";
import { jsonBody, startFakeCartesia } from "../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../testing/vendor-servers/tts-conformance.ts";
import { CARTESIA_VERSION, CartesiaTts } from "./cartesia-tts.ts";

describeTts({
  name: "Cartesia",
  start: startFakeCartesia,
  provider: (baseUrl, apiKey) =>
    new CartesiaTts({ apiKey, config: TTS_DEFAULT_CONFIG.cartesia, net: defaultNetwork(), baseUrl }),
  sampleRate: 16_000,
  checkRequest: (request) => {
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.headers["cartesia-version"]).toBe(CARTESIA_VERSION);
    expect(jsonBody(request)).toEqual({
      model_id: "sonic-2",
      transcript: "Hello there.",
      voice: { mode: "id", id: "694f9389-aac1-45b6-b726-9d9369183238" },
      output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 16000 },
      language: "en",
    });
  },
});
