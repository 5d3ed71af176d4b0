import { describe, expect, it } from "vitest";
import { testAssistant } from "../../testing/call-harness.ts";
import { ProviderError } from "../providers/provider-error.ts";
import { callSettingsOf } from "./call-settings.ts";

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe("callSettingsOf", () => {
  it("refuses an invalid provider configuration, naming the vendor, without retrying", () => {
    const assistant = testAssistant({ stt_provider: "assembly-ai", stt_provider_config: { encoding: "flac" } });
    const error = thrownBy(() => callSettingsOf(assistant));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false });
    expect(String(error)).toContain("AssemblyAI: invalid configuration: encoding: ");
  });

  it("types each provider's config with its own schema, the transcriber's language defaulting to the assistant's", () => {
    const settings = callSettingsOf(
      testAssistant({ language: "es", stt_provider: "deepgram", stt_provider_config: { keyterms: ["Parley"] } }),
    );
    const stt = settings.providers.stt;
    expect(stt.provider).toBe("deepgram");
    if (stt.provider !== "deepgram") return;
    expect(stt.config).toMatchObject({ language: "es", keyterms: ["Parley"], model: "nova-3" });
    const chosen = callSettingsOf(testAssistant({ language: "es", stt_provider_config: { language: "fr" } }));
    expect(chosen.providers.stt.config.language).toBe("fr");
  });

  it("leaves switched-off behaviours out", () => {
    const settings = callSettingsOf(
      testAssistant({
        first_speaker: "user",
        transfer_config: [{ name: "Sales", number: "+15551234567", transfer_message: "" }],
        dtmf_mapping: { "1": "Sales" },
        voicemail_message: "Call us back.",
        hippa_compliant: true,
      }),
    );
    expect(settings).toMatchObject({
      firstMessage: null,
      transferDestinations: [],
      dtmfMapping: null,
      voicemail: null,
      background: null,
      record: false,
      redactCardNumbers: false,
    });
  });
});
