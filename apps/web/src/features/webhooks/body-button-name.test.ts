import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const localesDir = path.join(import.meta.dirname, "locales");

/**
 * The delivery log's "Show body" button is named for its event for screen readers; its visible text
 * must stay inside that name (WCAG 2.5.3, axe's label-content-name-mismatch), in every language.
 */
describe("the delivery body button's accessible name", () => {
  for (const file of readdirSync(localesDir).filter((name) => name.endsWith(".json"))) {
    it(`contains its visible text in ${file}`, () => {
      const texts = JSON.parse(readFileSync(path.join(localesDir, file), "utf8"));
      expect(texts.showBodyNamed).toContain(texts.showBody);
    });
  }
});
