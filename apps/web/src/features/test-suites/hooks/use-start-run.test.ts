import { describe, expect, it } from "vitest";
import { startRunBody } from "./use-start-run.ts";

describe("startRunBody", () => {
  it("asks for the chosen assistant version, and for none (the published one) by default", () => {
    expect(startRunBody(undefined, null)).toEqual({});
    expect(startRunBody(undefined, 1)).toEqual({ version: 1 });
    expect(startRunBody(["c1"], 2)).toEqual({ case_ids: ["c1"], version: 2 });
    expect(startRunBody(["c1"], null)).toEqual({ case_ids: ["c1"] });
  });
});
