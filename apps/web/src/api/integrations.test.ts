import type { Integration } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { integrationEntry } from "../testing/integration-entry.ts";
import { providerKeyMissing, voiceKeyMissing } from "./integrations.ts";

const entry = (provider: string, source: Integration["source"]) => integrationEntry(provider, { source });

describe("providerKeyMissing", () => {
  it("says a voice provider without a workspace or server key cannot speak", () => {
    expect(providerKeyMissing([entry("openai", null)], "tts", "openai")).toBe(true);
    expect(providerKeyMissing([], "tts", "cartesia")).toBe(true);
  });

  it("is satisfied by the workspace's own key or the server's", () => {
    expect(providerKeyMissing([entry("openai", "workspace")], "tts", "openai")).toBe(false);
    expect(providerKeyMissing([entry("elevenlabs", "environment")], "tts", "elevenlabs")).toBe(false);
  });

  it("knows each stage's key-free providers", () => {
    expect(providerKeyMissing([], "llm", "openai-compatible")).toBe(false);
    expect(providerKeyMissing([], "llm", "anthropic")).toBe(true);
    expect(providerKeyMissing([entry("deepgram", "environment")], "stt", "deepgram")).toBe(false);
    expect(providerKeyMissing([], "stt", "nope")).toBe(false);
  });

  it("never blocks the offline voice, and waits for the list before judging", () => {
    expect(providerKeyMissing(undefined, "tts", "local")).toBe(false);
    expect(providerKeyMissing([], "tts", "local")).toBe(false);
    expect(providerKeyMissing(undefined, "tts", "openai")).toBeUndefined();
    expect(voiceKeyMissing(undefined, "local")).toBe(false);
    expect(voiceKeyMissing([], "openai")).toBe(true);
  });
});
