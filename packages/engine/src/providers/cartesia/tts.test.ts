import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeCartesia } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { CARTESIA_VERSION, CartesiaTts, cartesiaRequestBody } from "./tts.ts";

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

describe("Cartesia speed and emotion", () => {
  it("go in generation_config for Sonic 3 models", () => {
    const body = cartesiaRequestBody(
      { ...TTS_DEFAULT_CONFIG.cartesia, model: "sonic-3", speed: 2, emotion: "positivity:high" },
      "Hi",
    );
    expect(body.generation_config).toEqual({ speed: 1.5, emotion: "positivity:high" });
    expect(body.voice).toEqual({ mode: "id", id: TTS_DEFAULT_CONFIG.cartesia.voice });
  });

  it("go in the voice's experimental controls for Sonic 2", () => {
    const body = cartesiaRequestBody({ ...TTS_DEFAULT_CONFIG.cartesia, speed: 0.5 }, "Hi");
    expect(body.voice).toMatchObject({ __experimental_controls: { speed: -0.5 } });
    expect(body).not.toHaveProperty("generation_config");
  });
});
