import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages.ts";

const shellDir = path.join(import.meta.dirname, "locales");
const namespaceDirs = (parent: string) =>
  readdirSync(path.join(import.meta.dirname, "..", parent))
    .map((name) => ({ name, dir: path.join(import.meta.dirname, "..", parent, name, "locales") }))
    .filter((b) => existsSync(b.dir));
/** The app shell's strings, then every feature or shared widget namespace that keeps its own. */
const bundles = [{ name: "shell", dir: shellDir }, ...namespaceDirs("features"), ...namespaceDirs("components")];

const load = (dir: string, code: string) =>
  JSON.parse(readFileSync(path.join(dir, `${code}.json`), "utf8")) as Record<string, unknown>;

function keysOf(value: unknown, prefix = ""): string[] {
  if (!value || typeof value !== "object") return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

/**
 * A language's own plural forms beside English's one/other (Arabic has zero, two, few and many):
 * i18next picks them by the count, and they stand for English's `_other`.
 */
const EXTRA_PLURALS = /_(zero|two|few|many)$/;
const withoutExtraPlurals = (keys: string[], english: string[]) =>
  keys.filter((k) => !(EXTRA_PLURALS.test(k) && english.includes(k.replace(EXTRA_PLURALS, "_other"))));

describe.each(bundles)("translations of $name", ({ dir }) => {
  const english = keysOf(load(dir, "en")).sort();

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
      expect(withoutExtraPlurals(keysOf(load(dir, code)), english).sort()).toEqual(english);
    },
  );
});
