import { describe, expect, it } from "vitest";
import {
  ASSISTANT_TEMPLATES,
  CreateAssistantBody,
  costPerMinute,
  LLM_CATALOG,
  LLM_DEFAULT_CONFIG,
  LLM_PROVIDERS,
  PRICE_TABLE,
  STT_CATALOG,
  STT_CONFIG_SCHEMAS,
  STT_PROVIDERS,
  sttDefaultConfig,
  TTS_CATALOG,
  TTS_DEFAULT_CONFIG,
  TTS_PROVIDERS,
} from "./index.ts";

/** Spec §3: the transcriber configuration fields of each provider, exactly. */
const SPEC_STT_FIELDS: Record<string, string[]> = {
  deepgram: [
    "language",
    "detect_language",
    "punctuate",
    "sample_rate",
    "numerals",
    "filler_words",
    "keywords",
    "keyterms",
    "profanity_filter",
  ],
  openai: ["language", "detect_language"],
  groq: ["language", "detect_language"],
  "assembly-ai": [
    "language",
    "detect_language",
    "sample_rate",
    "encoding",
    "disable_partial_transcripts",
    "end_utterance_silence_threshold",
    "word_boost",
  ],
  speechmatics: ["language", "detect_language", "operating_point", "additional_vocab"],
  hamsa: ["language", "detect_language"],
  local: ["language", "detect_language"],
};

describe("provider catalog", () => {
  it("lists every provider with its default model first among its options", () => {
    for (const id of LLM_PROVIDERS) {
      expect(LLM_CATALOG[id].models.map((m) => m.value)).toContain(LLM_DEFAULT_CONFIG[id].model);
    }
    for (const id of STT_PROVIDERS) {
      expect(STT_CATALOG[id].models.map((m) => m.value)).toContain(sttDefaultConfig(id).model);
    }
    for (const id of TTS_PROVIDERS) {
      const entry = TTS_CATALOG[id];
      expect(entry.models.map((m) => m.value)).toContain(TTS_DEFAULT_CONFIG[id].model);
      expect(entry.voices.map((v) => v.id)).toContain(TTS_DEFAULT_CONFIG[id].voice);
      expect(entry.encodings).toContain(TTS_DEFAULT_CONFIG[id].encoding);
    }
  });

  it("gives each transcriber exactly the spec §3 fields, each one a field of its schema", () => {
    for (const id of STT_PROVIDERS) {
      const names = STT_CATALOG[id].fields.map((f) => f.name);
      expect(names).toEqual(SPEC_STT_FIELDS[id]);
      const shape = Object.keys(STT_CONFIG_SCHEMAS[id].shape);
      for (const name of names) expect(shape).toContain(name);
      const select = STT_CATALOG[id].fields.filter((f) => f.kind === "select");
      for (const field of select) expect(field.options?.length).toBeGreaterThan(0);
    }
  });

  it("flags the local providers as offline and keyless", () => {
    expect(STT_CATALOG.local).toMatchObject({ offline: true, needsKey: false });
    expect(STT_CATALOG.local.note).toMatch(/weak on free speech/);
    expect(TTS_CATALOG.local).toMatchObject({ offline: true, needsKey: false });
    expect(LLM_CATALOG["openai-compatible"]).toMatchObject({ offline: true, needsBaseUrl: true });
  });
});

describe("costPerMinute", () => {
  it("sums its parts to the total and uses the defaults for an empty config", () => {
    const cost = costPerMinute({});
    const { stt, llm, tts, telephony, platform } = cost.breakdown;
    expect(cost.total).toBeCloseTo(stt + llm + tts + telephony + platform, 6);
    expect(stt).toBe(PRICE_TABLE.stt.deepgram.models["nova-3"]);
    expect(tts).toBe(PRICE_TABLE.tts.openai.models["tts-1"]);
    expect(telephony).toBe(0);
    expect(cost.currency).toBe("USD");
    expect(cost.assumptions.llm_input_tokens_per_minute).toBeGreaterThan(0);
  });

  it("costs nothing for an all-local assistant and adds telephony for phone calls", () => {
    const local = costPerMinute({ llm_provider: "openai-compatible", stt_provider: "local", tts_provider: "local" });
    expect(local.total).toBe(0);
    const phone = costPerMinute({ stt_provider: "local", tts_provider: "local" }, { telephony: true });
    expect(phone.breakdown.telephony).toBe(PRICE_TABLE.telephonyPerMinute);
  });

  it("charges more for a bigger model and a longer prompt", () => {
    const mini = costPerMinute({ llm_provider: "openai", llm_provider_config: { model: "gpt-4o-mini" } });
    const big = costPerMinute({ llm_provider: "openai", llm_provider_config: { model: "gpt-4o" } });
    expect(big.breakdown.llm).toBeGreaterThan(mini.breakdown.llm);
    const long = costPerMinute({ system_prompt: "x".repeat(8000) });
    expect(long.assumptions.llm_input_tokens_per_minute).toBeGreaterThan(mini.assumptions.llm_input_tokens_per_minute);
  });
});

describe("assistant templates", () => {
  it("offers at least six valid, distinct templates", () => {
    expect(ASSISTANT_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(ASSISTANT_TEMPLATES.map((t) => t.id)).size).toBe(ASSISTANT_TEMPLATES.length);
    for (const template of ASSISTANT_TEMPLATES) {
      const parsed = CreateAssistantBody.parse(template.assistant);
      expect(parsed.system_prompt.length).toBeGreaterThan(200);
      expect(parsed.first_message.length).toBeGreaterThan(10);
      if (parsed.call_transfer) expect(parsed.transfer_config.length).toBeGreaterThan(0);
    }
  });
});
