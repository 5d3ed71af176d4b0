import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CallEndReason } from "@parley/contract";
import { describe, expect, it } from "vitest";

const localesDir = path.join(import.meta.dirname, "locales");

/** The live panel says why a call ended in the user's language, for every reason a call can end with. */
describe("the live call's end reasons", () => {
  for (const file of readdirSync(localesDir).filter((name) => name.endsWith(".json"))) {
    it(`are all worded in ${file}`, () => {
      const reasons = JSON.parse(readFileSync(path.join(localesDir, file), "utf8")).reasons ?? {};
      const missing = CallEndReason.options.filter((reason) => typeof reasons[reason] !== "string");
      expect(missing).toEqual([]);
    });
  }
});
