import { describe, expect, it } from "vitest";
import { sttFields, sttFieldsFromSchema } from "./stt-fields.ts";

const keys = (provider: Parameters<typeof sttFieldsFromSchema>[0]) => sttFieldsFromSchema(provider).map((f) => f.key);

describe("transcriber settings", () => {
  it("are exactly the spec §3 fields of each provider", () => {
    expect(keys("deepgram")).toEqual([
      "language",
      "detect_language",
      "punctuate",
      "sample_rate",
      "numerals",
      "filler_words",
      "keywords",
      "keyterms",
      "profanity_filter",
    ]);
    expect(keys("openai")).toEqual(["language", "detect_language"]);
    expect(keys("groq")).toEqual(["language", "detect_language"]);
    expect(keys("assembly-ai")).toEqual([
      "language",
      "detect_language",
      "sample_rate",
      "encoding",
      "disable_partial_transcripts",
      "end_utterance_silence_threshold",
      "word_boost",
    ]);
    expect(keys("speechmatics")).toEqual(["language", "detect_language", "operating_point", "additional_vocab"]);
    expect(keys("hamsa")).toEqual(["language", "detect_language"]);
  });

  it("know how each setting is edited", () => {
    const assembly = sttFieldsFromSchema("assembly-ai");
    expect(assembly.find((f) => f.key === "encoding")).toEqual({
      key: "encoding",
      kind: "select",
      options: [
        { value: "pcm_s16le", label: "pcm_s16le" },
        { value: "pcm_mulaw", label: "pcm_mulaw" },
      ],
    });
    expect(assembly.find((f) => f.key === "detect_language")?.kind).toBe("boolean");
    expect(assembly.find((f) => f.key === "word_boost")?.kind).toBe("list");
    expect(assembly.find((f) => f.key === "end_utterance_silence_threshold")).toMatchObject({
      kind: "number",
      min: 0,
      max: 20000,
    });
  });

  it("follow the server's description when it gives one, else the contract", () => {
    const languages = [
      { value: "en", label: "English" },
      { value: "fr", label: "French" },
    ];
    const fromServer = sttFields("deepgram", [
      { name: "model", kind: "text", label: "Model" },
      { name: "language", kind: "select", label: "Language", options: languages },
      { name: "punctuate", kind: "boolean", label: "Punctuation" },
    ]);
    expect(fromServer).toEqual([
      { key: "language", kind: "select", label: "Language", options: languages },
      { key: "punctuate", kind: "boolean", label: "Punctuation" },
    ]);
    expect(sttFields("hamsa", undefined)).toEqual(sttFieldsFromSchema("hamsa"));
    expect(sttFields("hamsa", "garbage")).toEqual(sttFieldsFromSchema("hamsa"));
  });
});
