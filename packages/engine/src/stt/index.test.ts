import { STT_PROVIDERS, sttDefaultConfig } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { defaultNetwork } from "../providers/default-network.ts";
import { ProviderError } from "../providers/provider-error.ts";
import { createSttProvider } from "./index.ts";

const net = defaultNetwork();

describe("createSttProvider", () => {
  it.each(STT_PROVIDERS.filter((id) => id !== "local"))("builds the %s adapter from an api_key", (id) => {
    const provider = createSttProvider(id, { credentials: { api_key: "k" }, config: sttDefaultConfig(id), net });
    expect(provider.id).toBe(id);
    expect(provider.streaming).toBe(id !== "groq" && id !== "hamsa");
  });

  it("builds the offline recogniser without credentials", () => {
    const provider = createSttProvider("local", { credentials: null, config: sttDefaultConfig("local"), net });
    expect(provider).toMatchObject({ id: "local", streaming: false });
  });

  it.each<Record<string, string> | null>([null, {}, { api_key: "  " }])(
    "refuses a cloud recogniser without a key (%j)",
    (credentials) => {
      const build = () => createSttProvider("deepgram", { credentials, config: {}, net });
      expect(build).toThrow(ProviderError);
      expect(build).toThrow("No API key for Deepgram. Add one on the Integrations page.");
      try {
        build();
      } catch (error) {
        expect(error).toMatchObject({ retryable: false });
      }
    },
  );

  it("reports an invalid configuration when the session opens, without retrying", async () => {
    const provider = createSttProvider("assembly-ai", {
      credentials: { api_key: "k" },
      config: { encoding: "flac" },
      net,
    });
    const error = await provider
      .open({ language: "en", config: {}, onTranscript: () => {}, onError: () => {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false });
    expect(String(error)).toContain("invalid configuration: encoding");
  });
});
