import { describe, expect, it } from "vitest";
import { liveUrl, modelResource, pcmRate } from "./setup-message.ts";

describe("the Live API's connection details", () => {
  it("puts the key in the query of the reference's WebSocket path, on the vendor or an integration's base URL", () => {
    expect(liveUrl("AIza-key")).toBe(
      "wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=AIza-key",
    );
    expect(liveUrl("AIza-key", "https://proxy.example.com/gemini/v1beta/")).toBe(
      "wss://proxy.example.com/gemini/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=AIza-key",
    );
  });

  it("names models as resources and reads the output rate from the MIME type", () => {
    expect(modelResource("gemini-live-2.5-flash-preview")).toBe("models/gemini-live-2.5-flash-preview");
    expect(modelResource("models/gemini-live-2.5-flash-preview")).toBe("models/gemini-live-2.5-flash-preview");
    expect(pcmRate("audio/pcm;rate=24000")).toBe(24_000);
    expect(pcmRate("audio/pcm")).toBe(24_000);
  });
});
