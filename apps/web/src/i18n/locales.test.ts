import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages.ts";

const dir = path.join(import.meta.dirname, "locales");
const load = (code: string) =>
  JSON.parse(readFileSync(path.join(dir, `${code}.json`), "utf8")) as Record<string, unknown>;

function keysOf(value: unknown, prefix = ""): string[] {
  if (!value || typeof value !== "object") return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("translations", () => {
  const english = keysOf(load("en")).sort();

  it("ship a file for every interface language", () => {
    expect(
      readdirSync(dir)
        .map((f) => f.replace(".json", ""))
        .sort(),
    ).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it.each(LANGUAGES.filter((l) => l.code !== "en").map((l) => l.code))(
    "translate every English string into %s",
    (code) => {
      expect(keysOf(load(code)).sort()).toEqual(english);
    },
  );
});
