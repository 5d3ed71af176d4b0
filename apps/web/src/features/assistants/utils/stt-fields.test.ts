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
      options: ["pcm_s16le", "pcm_mulaw"],
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
    const fromServer = sttFields("deepgram", [
      { key: "model", type: "string" },
      { key: "language", type: "string", options: [{ value: "en" }, { value: "fr" }] },
      { key: "punctuate", type: "boolean" },
    ]);
    expect(fromServer).toEqual([
      { key: "language", kind: "select", options: ["en", "fr"] },
      { key: "punctuate", kind: "boolean" },
    ]);
    expect(sttFields("hamsa", undefined)).toEqual(sttFieldsFromSchema("hamsa"));
    expect(sttFields("hamsa", "garbage")).toEqual(sttFieldsFromSchema("hamsa"));
  });
});
