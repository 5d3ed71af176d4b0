import { TTS_DEFAULT_CONFIG, TTS_PROVIDERS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { defaultNetwork } from "../providers/default-network.ts";
import { ProviderError } from "../providers/provider-error.ts";
import { createTtsProvider } from "./index.ts";

const net = defaultNetwork();

describe("createTtsProvider", () => {
  it.each(TTS_PROVIDERS.filter((id) => id !== "local"))("builds the %s adapter with its model and voice", (id) => {
    const config = TTS_DEFAULT_CONFIG[id];
    const provider = createTtsProvider(id, { credentials: { api_key: "k", user_id: "u" }, config, net });
    expect(provider).toMatchObject({ id, model: config.model, voice: config.voice });
  });

  it("builds the offline voice without credentials", () => {
    const provider = createTtsProvider("local", { credentials: null, config: TTS_DEFAULT_CONFIG.local, net });
    expect(provider).toMatchObject({ id: "local", model: "espeak-ng", voice: "en-us" });
  });

  it("refuses a cloud voice without a key, naming the vendor", () => {
    const build = () =>
      createTtsProvider("elevenlabs", { credentials: null, config: TTS_DEFAULT_CONFIG.elevenlabs, net });
    expect(build).toThrow(ProviderError);
    expect(build).toThrow("No API key for ElevenLabs. Add one on the Integrations page.");
  });

  it("refuses PlayHT without its user id", () => {
    const build = () =>
      createTtsProvider("playht", { credentials: { api_key: "k" }, config: TTS_DEFAULT_CONFIG.playht, net });
    expect(build).toThrow("No user ID for PlayHT");
  });
});
