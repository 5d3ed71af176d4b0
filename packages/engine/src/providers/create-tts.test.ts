import { TTS_DEFAULT_CONFIG, TTS_PROVIDERS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { defaultNetwork } from "../../testing/default-network.ts";
import { createProvider } from "./create-provider.ts";
import { ProviderError } from "./provider-error.ts";

const net = defaultNetwork();

describe('createProvider("tts")', () => {
  it.each(TTS_PROVIDERS.filter((id) => id !== "local"))(
    "builds the %s adapter with its model and voice",
    async (id) => {
      const config = TTS_DEFAULT_CONFIG[id];
      const provider = await createProvider("tts", id, { credentials: { api_key: "k", user_id: "u" }, config, net });
      expect(provider).toMatchObject({ id, model: config.model, voice: config.voice });
    },
  );

  it("builds the offline voice without credentials", async () => {
    const provider = await createProvider("tts", "local", { credentials: null, config: TTS_DEFAULT_CONFIG.local, net });
    expect(provider).toMatchObject({ id: "local", model: "espeak-ng", voice: "en-us" });
  });

  it("refuses a cloud voice without a key, naming the vendor", async () => {
    const build = () =>
      createProvider("tts", "elevenlabs", { credentials: null, config: TTS_DEFAULT_CONFIG.elevenlabs, net });
    await expect(build()).rejects.toThrow(ProviderError);
    await expect(build()).rejects.toHaveProperty(
      "message",
      "ElevenLabs: No API key for ElevenLabs. Add one on the Integrations page.",
    );
  });

  it("refuses PlayHT without its user id", async () => {
    const build = () =>
      createProvider("tts", "playht", { credentials: { api_key: "k" }, config: TTS_DEFAULT_CONFIG.playht, net });
    await expect(build()).rejects.toHaveProperty(
      "message",
      "PlayHT: No user ID for PlayHT. Add it on the Integrations page.",
    );
  });
});
