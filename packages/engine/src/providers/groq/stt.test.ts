import { sttDefaultConfig } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { describeBufferedStt } from "../../../testing/vendor-servers/buffered-stt-conformance.ts";
import { startFakeGroqTranscriptions, wavFormat } from "../../../testing/vendor-servers/fake-transcription-http.ts";
import { formDataOf, requestHeader } from "../../../testing/vendor-servers/http-server.ts";
import { GroqStt } from "./stt.ts";

describeBufferedStt({
  name: "Groq",
  start: startFakeGroqTranscriptions,
  provider: (baseUrl, apiKey) =>
    new GroqStt({ apiKey, config: { ...sttDefaultConfig("groq"), language: "fr" }, net: defaultNetwork(), baseUrl }),
  checkRequest: async (server) => {
    const request = server.requests[0];
    if (!request) throw new Error("no request");
    expect(requestHeader(request, "authorization")).toBe("Bearer test-key");
    const form = await formDataOf(request);
    expect(form.get("model")).toBe("whisper-large-v3-turbo");
    expect(form.get("language")).toBe("fr");
    expect(form.get("response_format")).toBe("json");
    const file = form.get("file");
    if (!(file instanceof Blob)) throw new Error("no file part");
    expect(wavFormat(new Uint8Array(await file.arrayBuffer()))).toEqual({
      sampleRate: 16000,
      channels: 1,
      bits: 16,
      samples: 8000,
    });
  },
});
