import { TTS_DEFAULT_CONFIG } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { jsonBody, startFakeRime } from "../../../testing/vendor-servers/fake-tts-vendors.ts";
import { describeTts } from "../../../testing/vendor-servers/tts-conformance.ts";
import { RimeTts } from "./tts.ts";

describeTts({
  name: "Rime",
  start: startFakeRime,
  provider: (baseUrl, apiKey) =>
    new RimeTts({ apiKey, config: { ...TTS_DEFAULT_CONFIG["rime-ai"], speed: 1.25 }, net: defaultNetwork(), baseUrl }),
  sampleRate: 16_000,
  checkRequest: (request) => {
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.headers.accept).toBe("audio/pcm");
    expect(jsonBody(request)).toEqual({
      speaker: "cove",
      text: "Hello there.",
      modelId: "mistv2",
      samplingRate: 16000,
      speedAlpha: 0.8,
      lang: "eng",
    });
  },
});
