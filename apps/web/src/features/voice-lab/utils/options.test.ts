import { TTS_CATALOG } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { firstIfMissing, hasAccountVoices, PROVIDER_REQUIRED, providerOptions, requireProvider } from "./options.ts";

const options = [
  { value: "a", label: "A" },
  { value: "b", label: "B" },
];

describe("auto-selecting a fetched option (spec §4)", () => {
  it("keeps a current value the list contains", () => {
    expect(firstIfMissing("b", options)).toBeNull();
  });

  it("switches to the first option when the current value is not listed", () => {
    expect(firstIfMissing("gone", options)).toBe("a");
    expect(firstIfMissing(undefined, options)).toBe("a");
  });

  it("leaves the value alone when there is nothing to choose", () => {
    expect(firstIfMissing("x", [])).toBeNull();
  });
});

describe("loading voices needs a provider (spec §5)", () => {
  it("rejects an empty provider with the spec's text", () => {
    expect(() => requireProvider("")).toThrow(PROVIDER_REQUIRED);
    expect(() => requireProvider("  ")).toThrow(PROVIDER_REQUIRED);
    expect(() => requireProvider(undefined)).toThrow(PROVIDER_REQUIRED);
  });

  it("passes a named provider through", () => {
    expect(requireProvider(" local ")).toBe("local");
  });
});

describe("provider options", () => {
  it("reads the server's voices and models, clones flagged custom", () => {
    const result = providerOptions("elevenlabs", {
      source: "live",
      models: [{ value: "eleven_flash_v2_5", label: "Flash" }, { value: "bare" }],
      voices: [
        { id: "c1", name: "My voice", isCustom: true },
        { id: "v1", name: "Rachel", isCustom: false },
      ],
    });
    expect(result.models).toEqual([
      { value: "eleven_flash_v2_5", label: "Flash" },
      { value: "bare", label: "bare" },
    ]);
    expect(result.voices[0]).toEqual({ value: "c1", label: "My voice", isCustom: true });
  });

  it("falls back to the built-in catalog when the list could not be fetched", () => {
    const result = providerOptions("local", undefined);
    expect(result.models.map((m) => m.value)).toEqual(TTS_CATALOG.local.models.map((m) => m.value));
    expect(result.voices[0]).toEqual({ value: "en-us", label: "English (US)", isCustom: false });
  });
});

describe("account voice lists", () => {
  it("come from the vendors whose voices differ per account", () => {
    expect(hasAccountVoices("elevenlabs")).toBe(true);
    expect(hasAccountVoices("cartesia")).toBe(true);
    expect(hasAccountVoices("openai")).toBe(false);
    expect(hasAccountVoices("local")).toBe(false);
  });
});
