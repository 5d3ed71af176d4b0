import { sttDefaultConfig } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { describeBufferedStt } from "../../../testing/vendor-servers/buffered-stt-conformance.ts";
import { startFakeHamsaStt, wavFormat } from "../../../testing/vendor-servers/fake-transcription-http.ts";
import { requestHeader } from "../../../testing/vendor-servers/http-server.ts";
import { HamsaStt } from "./stt.ts";

describeBufferedStt({
  name: "Hamsa",
  start: startFakeHamsaStt,
  provider: (baseUrl, apiKey) =>
    new HamsaStt({ apiKey, config: sttDefaultConfig("hamsa"), net: defaultNetwork(), baseUrl }),
  checkRequest: async (server) => {
    const request = server.requests[0];
    if (!request) throw new Error("no request");
    expect(requestHeader(request, "authorization")).toBe("Token test-key");
    const body = JSON.parse(request.body.toString("utf8")) as { audioBase64: string; language: string };
    expect(body).toMatchObject({ language: "ar", isEosEnabled: false });
    expect(wavFormat(Buffer.from(body.audioBase64, "base64"))).toEqual({
      sampleRate: 16000,
      channels: 1,
      bits: 16,
      samples: 8000,
    });
  },
});
