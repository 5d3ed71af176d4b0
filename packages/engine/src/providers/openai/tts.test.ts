import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeOpenAiSpeech } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { OpenAiTts } from "./tts.ts";

describeTts({
  name: "OpenAI",
  start: startFakeOpenAiSpeech,
  provider: (baseUrl, apiKey) =>
    new OpenAiTts({ apiKey, config: { ...TTS_DEFAULT_CONFIG.openai, speed: 1.25 }, net: defaultNetwork(), baseUrl }),
  sampleRate: 24_000,
  checkRequest: (request) => {
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(jsonBody(request)).toEqual({
      model: "tts-1",
      voice: "alloy",
      input: "Hello there.",
      response_format: "pcm",
      speed: 1.25,
    });
  },
});
