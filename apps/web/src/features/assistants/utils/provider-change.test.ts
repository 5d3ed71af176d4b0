import { LLM_DEFAULT_CONFIG, sttDefaultConfig, TTS_DEFAULT_CONFIG } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { llmProviderChange, sttProviderChange, ttsProviderChange } from "./provider-change.ts";

describe("changing a provider", () => {
  it("resets the language model and its config to that provider's defaults", () => {
    expect(llmProviderChange("azure-openai")).toEqual({
      llm_provider: "azure-openai",
      llm_provider_config: LLM_DEFAULT_CONFIG["azure-openai"],
    });
    expect(llmProviderChange("openai-compatible").llm_provider_config.base_url).toBe("http://localhost:11434/v1");
  });

  it("resets the transcriber config to the provider's full defaults", () => {
    const change = sttProviderChange("assembly-ai");
    expect(change.stt_provider_config).toEqual(sttDefaultConfig("assembly-ai"));
    expect(change.stt_provider_config.end_utterance_silence_threshold).toBe(500);
    expect(change.stt_provider_config.encoding).toBe("pcm_s16le");
    expect(sttProviderChange("speechmatics").stt_provider_config).toMatchObject({
      operating_point: "enhanced",
      language: "auto",
    });
    expect(sttProviderChange("hamsa").stt_provider_config.language).toBe("ar");
  });

  it("resets the voice config, with elevenlabs' voice settings", () => {
    expect(ttsProviderChange("openai").tts_provider_config).toMatchObject({ model: "tts-1", voice: "alloy", speed: 1 });
    expect(ttsProviderChange("elevenlabs").tts_provider_config.settings).toEqual({
      stability: 0.5,
      similarity_boost: 0.75,
      style: 0,
      use_speaker_boost: true,
    });
  });

  it("hands out copies, so editing never changes the defaults table", () => {
    const change = ttsProviderChange("elevenlabs");
    change.tts_provider_config.voice = "edited";
    if (change.tts_provider_config.settings) change.tts_provider_config.settings.stability = 0.1;
    expect(TTS_DEFAULT_CONFIG.elevenlabs.voice).not.toBe("edited");
    expect(TTS_DEFAULT_CONFIG.elevenlabs.settings?.stability).toBe(0.5);
    const llm = llmProviderChange("openai");
    llm.llm_provider_config.model = "edited";
    expect(LLM_DEFAULT_CONFIG.openai.model).toBe("gpt-4o-mini");
  });
});
