import { type Assistant, AssistantFields, enforceHipaa } from "@parley/contract";
import { describe, expect, it } from "vitest";
import {
  AssistantForm,
  EDITOR_TABS,
  isFormField,
  tabOfField,
  toFormValues,
  toUpdateBody,
  visibleTabs,
} from "./assistant-form.ts";

const saved: Assistant = {
  ...AssistantFields.parse({ name: "Front desk" }),
  id: "a1",
  temp: false,
  stt_provider_config: AssistantFields.parse({ name: "x" }).stt_provider_config,
  transfer_config: [{ name: "Sales", number: "+15551234567", transfer_message: "One moment" }],
  dtmf_mapping: { "1": "sales", "#": "operator" },
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
};

describe("the assistant editor's values", () => {
  it("round-trip a saved assistant into the same PATCH body", () => {
    const values = AssistantForm.parse(toFormValues(saved));
    const body = toUpdateBody(values);
    expect(body.dtmf_mapping).toEqual({ "1": "sales", "#": "operator" });
    expect(body.transfer_config).toEqual(saved.transfer_config);
    expect(body.name).toBe("Front desk");
    expect(body).not.toHaveProperty("id");
  });

  it("hold every optional setting the editor has an input for as a key, set or not", () => {
    // A saved eSpeak voice has no emotion: the emotion input still registers the key, and a form
    // reset to values without it counted itself changed after every save.
    const espeak: Assistant = {
      ...saved,
      tts_provider: "local",
      tts_provider_config: { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16000, encoding: "pcm_s16le" },
    };
    const values = toFormValues(espeak);
    expect(Object.keys(values.tts_provider_config)).toEqual(
      expect.arrayContaining(["language", "encoding", "emotion"]),
    );
    expect(Object.keys(values.llm_provider_config)).toEqual(
      expect.arrayContaining(["base_url", "deployment", "api_version"]),
    );
    // Unset is undefined, so the PATCH body stays as saved.
    expect(toUpdateBody(AssistantForm.parse(values)).tts_provider_config).toEqual(espeak.tts_provider_config);
  });

  it("read numbers typed as text and reject an empty required number", () => {
    const typed = { ...toFormValues(saved), max_call_duration: "240", timeout_seconds: "" };
    const result = AssistantForm.safeParse(typed);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["timeout_seconds"]);
    const ok = AssistantForm.parse({ ...typed, timeout_seconds: "15" });
    expect(ok.max_call_duration).toBe(240);
  });

  it("check the transcriber settings against the chosen provider's schema", () => {
    const bad = { ...toFormValues(saved), stt_provider: "assembly-ai", stt_provider_config: { encoding: "mp3" } };
    const result = AssistantForm.safeParse(bad);
    expect(result.error?.issues[0]?.path).toEqual(["stt_provider_config", "encoding"]);
    const good = AssistantForm.parse({ ...bad, stt_provider_config: { encoding: "pcm_mulaw" } });
    expect(good.stt_provider_config).toMatchObject({ encoding: "pcm_mulaw", end_utterance_silence_threshold: 500 });
  });

  it("refuse a DTMF key mapped twice and a bad transfer number", () => {
    const twice = {
      ...toFormValues(saved),
      dtmf_mapping: [
        { digit: "1", value: "a" },
        { digit: "1", value: "b" },
      ],
    };
    expect(AssistantForm.safeParse(twice).error?.issues[0]?.path).toEqual(["dtmf_mapping", 1, "digit"]);
    const badNumber = { ...toFormValues(saved), transfer_config: [{ name: "X", number: "555", transfer_message: "" }] };
    expect(AssistantForm.safeParse(badNumber).error?.issues[0]?.path).toEqual(["transfer_config", 0, "number"]);
  });

  it("require a base URL for compatible endpoints and a deployment for Azure", () => {
    const compat = {
      ...toFormValues(saved),
      llm_provider: "openai-compatible",
      llm_provider_config: { model: "m", base_url: "" },
    };
    expect(AssistantForm.safeParse(compat).error?.issues[0]?.path).toEqual(["llm_provider_config", "base_url"]);
    const azure = {
      ...toFormValues(saved),
      llm_provider: "azure-openai",
      llm_provider_config: { model: "m", base_url: "https://x.openai.azure.com", deployment: "" },
    };
    expect(AssistantForm.safeParse(azure).error?.issues[0]?.path).toEqual(["llm_provider_config", "deployment"]);
  });

  it("never send voice settings to a provider other than elevenlabs", () => {
    const values = AssistantForm.parse({
      ...toFormValues(saved),
      tts_provider_config: { ...saved.tts_provider_config, settings: { stability: 0.2 } },
    });
    expect(toUpdateBody(values).tts_provider_config).not.toHaveProperty("settings");
  });
});

describe("HIPAA compliance", () => {
  it("forces audio recording off", () => {
    expect(enforceHipaa({ hippa_compliant: true, audio_recording: true }).audio_recording).toBe(false);
    expect(enforceHipaa({ hippa_compliant: false, audio_recording: true }).audio_recording).toBe(true);
    const values = AssistantForm.parse({ ...toFormValues(saved), hippa_compliant: true, audio_recording: true });
    expect(toUpdateBody(values).audio_recording).toBe(false);
  });
});

describe("a failed save", () => {
  it("opens the tab that shows the first problem", () => {
    expect(tabOfField("name")).toBe("model");
    expect(tabOfField("llm_provider_config")).toBe("model");
    expect(tabOfField("stt_provider_config")).toBe("transcriber");
    expect(tabOfField("tts_provider_config")).toBe("voice");
    expect(tabOfField("dtmf_mapping")).toBe("transfer");
    expect(tabOfField("timeout_seconds")).toBe("more");
    expect(tabOfField("stt_provider_config.language")).toBe("transcriber");
    expect(tabOfField("transfer_config.0.number")).toBe("transfer");
  });

  it("puts a server field error on the field it names, when the form has it", () => {
    const values = toFormValues(saved);
    expect(isFormField(values, "name")).toBe(true);
    expect(isFormField(values, "llm_provider_config.model")).toBe(true);
    expect(isFormField(values, "workspace_id")).toBe(false);
    expect(isFormField(values, "name.first")).toBe(false);
  });
});

describe("the realtime engine mode in the editor", () => {
  it("hides the transcriber and voice tabs of a realtime assistant and keeps every other tab", () => {
    expect(visibleTabs(false)).toEqual(EDITOR_TABS);
    expect(visibleTabs(true)).toEqual(EDITOR_TABS.filter((tab) => tab !== "transcriber" && tab !== "voice"));
  });

  it("opens the Model tab for a problem in the mode or the realtime model", () => {
    expect(tabOfField("engine_mode")).toBe("model");
    expect(tabOfField("realtime.turn_detection.silence_duration_ms")).toBe("model");
  });
});
