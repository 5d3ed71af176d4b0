import { type Integration, RealtimeConfig } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { missingKeyProviders } from "./missing-keys.ts";

const integration = (provider: string, configured: boolean, source: Integration["source"]): Integration => ({
  id: null,
  provider,
  label: provider,
  kind: "llm",
  kinds: ["llm"],
  fields: [],
  configured,
  source,
  values: {},
  last_test: null,
  updated_at: null,
});

describe("keys a test call needs", () => {
  const cloud = { llm_provider: "openai", stt_provider: "deepgram", tts_provider: "openai" } as const;

  it("names each provider without a key once, by its label", () => {
    expect(missingKeyProviders([integration("openai", false, null)], cloud)).toEqual(["OpenAI", "Deepgram"]);
  });

  it("counts the workspace's key and the server's environment key alike", () => {
    const keys = [integration("openai", true, "workspace"), integration("deepgram", false, "environment")];
    expect(missingKeyProviders(keys, cloud)).toEqual([]);
  });

  it("needs no key for the offline providers, and waits for the list", () => {
    const offline = { llm_provider: "openai-compatible", stt_provider: "local", tts_provider: "local" } as const;
    expect(missingKeyProviders([], offline)).toEqual([]);
    expect(missingKeyProviders(undefined, cloud)).toBeUndefined();
  });

  it("needs only the realtime model's vendor key for a realtime assistant", () => {
    const realtime = {
      ...cloud,
      engine_mode: "realtime",
      realtime: RealtimeConfig.parse({ provider: "gemini-live" }),
      workflow_id: null,
    } as const;
    expect(missingKeyProviders([integration("openai", false, null)], realtime)).toEqual(["Google Gemini"]);
    expect(missingKeyProviders([integration("google", true, "workspace")], realtime)).toEqual([]);
  });
});
