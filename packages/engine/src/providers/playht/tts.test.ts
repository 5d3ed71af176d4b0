import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakePlayHt } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { PlayHtTts } from "./tts.ts";

describeTts({
  name: "PlayHT",
  start: (options) => startFakePlayHt({ ...options, userId: "user-7" }),
  provider: (baseUrl, apiKey) =>
    new PlayHtTts({ apiKey, userId: "user-7", config: TTS_DEFAULT_CONFIG.playht, net: defaultNetwork(), baseUrl }),
  sampleRate: 16_000,
  checkRequest: (request) => {
    expect(request.headers.authorization).toBe("test-key");
    expect(request.headers["x-user-id"]).toBe("user-7");
    expect(jsonBody(request)).toEqual({
      text: "Hello there.",
      voice: TTS_DEFAULT_CONFIG.playht.voice,
      voice_engine: "Play3.0-mini",
      output_format: "raw",
      sample_rate: 16000,
      speed: 1,
      language: "english",
    });
  },
});
