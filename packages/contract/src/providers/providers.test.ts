import { describe, expect, expectTypeOf, it } from "vitest";
import { ASSISTANT_DEFAULTS } from "../assistants.ts";
import { providerKinds } from "../catalog.ts";
import { INTEGRATION_CATALOG, type IntegrationProviderId } from "../integrations.ts";
import { ElevenLabsVoiceSettings } from "./elevenlabs.ts";
import {
  CLONE_SERVICES,
  EMBEDDINGS_PROVIDERS,
  LLM_PROVIDERS,
  llmSettingsOf,
  PROVIDER_ENV_VARIABLES,
  PROVIDERS,
  providerDescriptor,
  providerLabel,
  STT_PROVIDERS,
  sttSettingsOf,
  TELEPHONY_PROVIDERS,
  TTS_PROVIDERS,
  ttsSettingsOf,
} from "./index.ts";
import { parseProviderConfigs } from "./provider-configs.ts";
import type { ProviderDescriptor, ProviderStage } from "./types.ts";

const descriptors: readonly ProviderDescriptor[] = PROVIDERS;
const idsWith = (stage: ProviderStage) => descriptors.filter((p) => p[stage] !== undefined).map((p) => p.id);

describe("provider descriptors", () => {
  it("have unique ids, each its own file name (kebab-case)", () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it("derive every stage list from the descriptors that have that stage", () => {
    expect([...LLM_PROVIDERS].sort()).toEqual(idsWith("llm").sort());
    expect([...STT_PROVIDERS].sort()).toEqual(idsWith("stt").sort());
    expect([...TTS_PROVIDERS].sort()).toEqual(idsWith("tts").sort());
    expect([...TELEPHONY_PROVIDERS].sort()).toEqual(idsWith("telephony").sort());
    expect([...EMBEDDINGS_PROVIDERS].sort()).toEqual(idsWith("embeddings").sort());
    const cloners = PROVIDERS.filter((p) => "tts" in p && p.tts.supportsClones).map((p) => p.id);
    expect([...CLONE_SERVICES].sort()).toEqual(cloners.sort());
  });

  it("puts every provider with credentials on the Integrations page, in display order", () => {
    const withKinds = PROVIDERS.filter((p) => p.integrationKinds.length > 0);
    expect(INTEGRATION_CATALOG.map((p) => p.id)).toEqual(withKinds.map((p) => p.id));
    for (const p of PROVIDERS) expect(p.integrationKinds.length > 0).toBe(p.credentials.length > 0);
    expectTypeOf<"whatsapp">().toExtend<IntegrationProviderId>();
    expectTypeOf<"local">().not.toExtend<IntegrationProviderId>();
  });

  it("takes the first provider of each stage as the spec §9 default", () => {
    expect(ASSISTANT_DEFAULTS).toMatchObject({
      llm_provider: LLM_PROVIDERS[0],
      stt_provider: STT_PROVIDERS[0],
      tts_provider: TTS_PROVIDERS[0],
    });
  });

  it("parses every descriptor's defaults with its own config schema", () => {
    for (const p of PROVIDERS) {
      if ("llm" in p) expect(p.llm.config.parse(p.llm.defaults)).toEqual(p.llm.defaults);
      if ("stt" in p) expect(p.stt.config.safeParse({}).success).toBe(true);
      if ("tts" in p) expect(p.tts.config.parse(p.tts.defaults)).toEqual(p.tts.defaults);
    }
  });

  it("names unique environment variables, one per credential field it backs", () => {
    expect(new Set(PROVIDER_ENV_VARIABLES).size).toBe(PROVIDER_ENV_VARIABLES.length);
    for (const name of PROVIDER_ENV_VARIABLES) expect(name).toMatch(/^[A-Z][A-Z0-9_]+$/);
    for (const p of PROVIDERS) {
      const fields = p.credentials.map((c) => c.name);
      for (const field of Object.keys(p.env)) expect(fields).toContain(field);
    }
  });

  it("gives each embeddings model a vector size, the default among the models", () => {
    for (const p of PROVIDERS) {
      if (!("embeddings" in p)) continue;
      const models = p.embeddings.models.map((m) => m.value);
      expect(models).toContain(p.embeddings.defaultModel);
      expect(Object.keys(p.embeddings.dimensions).sort()).toEqual([...models].sort());
    }
  });

  it("describes the voice settings the editor renders as the voice settings schema has them", () => {
    const settings = providerDescriptor("elevenlabs")?.tts?.settings ?? [];
    const defaults = ElevenLabsVoiceSettings.parse({});
    expect(Object.fromEntries(settings.map((s) => [s.name, s.default]))).toEqual(defaults);
    for (const s of settings.filter((f) => f.kind === "number")) {
      expect(ElevenLabsVoiceSettings.shape).toHaveProperty(s.name);
      expect(ElevenLabsVoiceSettings.safeParse({ [s.name]: s.max }).success).toBe(true);
      expect(ElevenLabsVoiceSettings.safeParse({ [s.name]: (s.max ?? 0) + 0.01 }).success).toBe(false);
    }
  });

  it("finds labels and kinds by id", () => {
    expect(providerLabel("assembly-ai")).toBe("AssemblyAI");
    expect(providerLabel("nobody")).toBe("nobody");
    expect(providerDescriptor("nobody")).toBeUndefined();
    expect(providerKinds("openai")).toEqual(["llm", "stt", "tts"]);
    expect(providerKinds("twilio")).toEqual([]);
  });
});

describe("typed provider settings", () => {
  it("parses an assistant's configs with its provider's schema", () => {
    const stt = sttSettingsOf({ stt_provider: "deepgram", stt_provider_config: { language: "es" } });
    expect(stt.provider === "deepgram" && stt.config.punctuate).toBe(true);
    expect(stt.config.language).toBe("es");

    const tts = ttsSettingsOf({ tts_provider: "elevenlabs", tts_provider_config: { model: "m", voice: "v" } });
    if (tts.provider !== "elevenlabs") throw new Error("expected ElevenLabs");
    expectTypeOf(tts.config.settings.stability).toBeNumber();
    expect(tts.config.settings).toEqual(ElevenLabsVoiceSettings.parse({}));

    const llm = llmSettingsOf({ llm_provider: "openai-compatible", llm_provider_config: { model: "llama3.2" } });
    expect(llm).toEqual({ provider: "openai-compatible", config: { model: "llama3.2" } });
    expect(() => llmSettingsOf({ llm_provider: "openai", llm_provider_config: {} })).toThrow(/model/);
  });

  it("reports a bad config under its wire field name", () => {
    const result = parseProviderConfigs({
      llm_provider: "openai",
      llm_provider_config: { model: "gpt-4o" },
      stt_provider: "assembly-ai",
      stt_provider_config: { end_utterance_silence_threshold: -1 },
      tts_provider: "elevenlabs",
      tts_provider_config: { model: "m", voice: "v", settings: { stability: 3 } },
    });
    expect(result.success).toBe(false);
    const paths = result.success ? [] : result.error.issues.map((i) => i.path.join("."));
    expect(paths).toEqual([
      "stt_provider_config.end_utterance_silence_threshold",
      "tts_provider_config.settings.stability",
    ]);

    const ok = parseProviderConfigs({
      llm_provider: "openai",
      llm_provider_config: { model: "gpt-4o" },
      stt_provider: "local",
      tts_provider: "local",
      tts_provider_config: { model: "espeak-ng", voice: "en-us" },
    });
    expect(ok.success && ok.data.stt.config.model).toBe("pocketsphinx-en-us");
  });
});
