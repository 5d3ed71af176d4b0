import { TTS_DEFAULT_CONFIG, TTS_PREVIEW_TEXT } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { initialSettings, previewRequest, withProvider, withVoice } from "./synthesis-settings.ts";

describe("synthesis settings", () => {
  it("start from the provider's defaults, normal speed and the preview sentence", () => {
    expect(initialSettings("local")).toEqual({
      provider: "local",
      model: "espeak-ng",
      voice: "en-us",
      speed: 1,
      text: TTS_PREVIEW_TEXT,
    });
  });

  it("reset model and voice on a provider change and keep speed and text", () => {
    const start = { ...initialSettings("local"), speed: 1.5, text: "Hi" };
    const next = withProvider(start, "cartesia");
    expect(next).toMatchObject({ provider: "cartesia", speed: 1.5, text: "Hi" });
    expect(next.model).toBe(TTS_DEFAULT_CONFIG.cartesia.model);
    expect(next.voice).toBe(TTS_DEFAULT_CONFIG.cartesia.voice);
    expect(withProvider(next, "cartesia")).toBe(next);
  });

  it("select a clone's voice on its provider", () => {
    const next = withVoice(initialSettings("local"), "elevenlabs", "clone-1");
    expect(next).toMatchObject({ provider: "elevenlabs", voice: "clone-1" });
    expect(next.model).toBe(TTS_DEFAULT_CONFIG.elevenlabs.model);
  });

  it("send trimmed text, or none so the server's sentence is used", () => {
    const settings = { ...initialSettings("local"), text: "  Hello there  ", speed: 9 };
    expect(previewRequest(settings)).toEqual({
      provider: "local",
      model: "espeak-ng",
      voice: "en-us",
      speed: 4,
      text: "Hello there",
    });
    expect(previewRequest({ ...settings, text: "   " })).not.toHaveProperty("text");
  });
});
