import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeElevenLabs } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { ElevenLabsTts } from "./tts.ts";

const config = {
  ...TTS_DEFAULT_CONFIG.elevenlabs,
  settings: { stability: 0.3, similarity_boost: 0.9, style: 0.2, use_speaker_boost: false },
};

describeTts({
  name: "ElevenLabs",
  start: startFakeElevenLabs,
  provider: (baseUrl, apiKey) => new ElevenLabsTts({ apiKey, config, net: defaultNetwork(), baseUrl }),
  sampleRate: 16_000,
  checkRequest: (request) => {
    expect(request.url.pathname).toBe("/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream");
    expect(request.url.searchParams.get("output_format")).toBe("pcm_16000");
    expect(request.headers["xi-api-key"]).toBe("test-key");
    expect(jsonBody(request)).toEqual({
      text: "Hello there.",
      model_id: "eleven_flash_v2_5",
      voice_settings: { stability: 0.3, similarity_boost: 0.9, style: 0.2, use_speaker_boost: false, speed: 1 },
      language_code: "en",
    });
  },
});
