import { STT_PROVIDERS, sttDefaultConfig } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { defaultNetwork } from "../../testing/default-network.ts";
import { createProvider } from "./create-provider.ts";
import { ProviderError } from "./provider-error.ts";

const net = defaultNetwork();

describe('createProvider("stt")', () => {
  it.each(STT_PROVIDERS.filter((id) => id !== "local"))("builds the %s adapter from an api_key", async (id) => {
    const provider = await createProvider("stt", id, {
      credentials: { api_key: "k" },
      config: sttDefaultConfig(id),
      net,
    });
    expect(provider.id).toBe(id);
    expect(provider.streaming).toBe(id !== "groq" && id !== "hamsa");
  });

  it("builds the offline recogniser without credentials", async () => {
    const provider = await createProvider("stt", "local", {
      credentials: null,
      config: sttDefaultConfig("local"),
      net,
    });
    expect(provider).toMatchObject({ id: "local", streaming: false });
  });

  it.each<Record<string, string> | null>([null, {}, { api_key: "  " }])(
    "refuses a cloud recogniser without a key (%j)",
    async (credentials) => {
      const build = () => createProvider("stt", "deepgram", { credentials, config: sttDefaultConfig("deepgram"), net });
      await expect(build()).rejects.toThrow(ProviderError);
      await expect(build()).rejects.toHaveProperty(
        "message",
        "Deepgram: No API key for Deepgram. Add one on the Integrations page.",
      );
      await expect(build()).rejects.toMatchObject({ retryable: false });
    },
  );
});
