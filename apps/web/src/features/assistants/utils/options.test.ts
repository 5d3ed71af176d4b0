import { describe, expect, it } from "vitest";
import { firstIfMissing, PROVIDER_REQUIRED, requireProvider } from "../../../lib/provider-options.ts";
import { mergeClones } from "./options.ts";

const options = [
  { value: "a", label: "A" },
  { value: "b", label: "B" },
];

describe("fetched options", () => {
  it("select the first option when the current value is not in the list", () => {
    expect(firstIfMissing("zzz", options)).toBe("a");
    expect(firstIfMissing(undefined, options)).toBe("a");
  });

  it("keep the current value when it is listed, and change nothing for an empty list", () => {
    expect(firstIfMissing("b", options)).toBeNull();
    expect(firstIfMissing("zzz", [])).toBeNull();
  });
});

describe("loading voices and models", () => {
  it("needs a provider", () => {
    expect(() => requireProvider("")).toThrow(PROVIDER_REQUIRED);
    expect(() => requireProvider(undefined)).toThrow("Provider is required to fetch voices and models.");
    expect(requireProvider(" elevenlabs ")).toBe("elevenlabs");
  });
});

describe("voice clones", () => {
  const clones = [
    { name: "My voice", service_name: "elevenlabs" as const, service_voice_id: "clone-1" },
    { name: "Cartesia clone", service_name: "cartesia" as const, service_voice_id: "clone-2" },
  ];
  const voices = [{ id: "v1", name: "Rachel", isCustom: false }];

  it("are merged into the elevenlabs and cartesia lists only, marked custom", () => {
    expect(mergeClones("elevenlabs", voices, clones)).toEqual([
      ...voices,
      { id: "clone-1", name: "My voice", isCustom: true },
    ]);
    expect(mergeClones("cartesia", voices, clones).map((v) => v.id)).toEqual(["v1", "clone-2"]);
    expect(mergeClones("openai", voices, clones)).toEqual(voices);
  });

  it("are not listed twice when the provider already returns them", () => {
    const withClone = [...voices, { id: "clone-1", name: "My voice", isCustom: true }];
    expect(mergeClones("elevenlabs", withClone, clones)).toHaveLength(2);
  });
});
