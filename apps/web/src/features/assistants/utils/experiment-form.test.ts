import { CreateExperimentBody } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import {
  checkExperiment,
  evidenceOf,
  newExperimentDraft,
  percentTotal,
  serverProblems,
  toExperimentBody,
} from "./experiment-form.ts";

describe("the new-experiment form", () => {
  it("starts with the two newest versions half and half, the older first", () => {
    expect(newExperimentDraft([1, 3, 2]).variants).toEqual([
      { version: 2, percent: "50" },
      { version: 3, percent: "50" },
    ]);
  });

  it("sends what passes its checks, and the contract's schema takes it", () => {
    const draft = { ...newExperimentDraft([1, 2]), name: " Greeting " };
    expect(checkExperiment(draft)).toEqual({});
    const body = toExperimentBody(draft);
    expect(body).toEqual({
      name: "Greeting",
      channel: "all",
      variants: [
        { version: 1, percent: 50 },
        { version: 2, percent: 50 },
      ],
    });
    expect(CreateExperimentBody.safeParse(body).success).toBe(true);
  });

  it("refuses what the server would: no name, a version twice, shares out of range or not adding up", () => {
    const draft = newExperimentDraft([1, 2]);
    const twice = [
      { version: 1, percent: "50" },
      { version: 1, percent: "60" },
    ];
    expect(checkExperiment({ ...draft, variants: twice })).toEqual({
      name: "nameRequired",
      "variants.1.version": "versionTwice",
      variants: "sumTo100",
    });
    const outOfRange = {
      ...draft,
      name: "x",
      variants: [
        { version: 1, percent: "0" },
        { version: "" as const, percent: "" },
      ],
    };
    expect(checkExperiment(outOfRange)).toEqual({
      "variants.0.percent": "percentRange",
      "variants.1.version": "versionRequired",
      "variants.1.percent": "percentRange",
    });
    expect(
      percentTotal({
        ...draft,
        variants: [
          { version: 1, percent: "70" },
          { version: 2, percent: "" },
        ],
      }),
    ).toBe(70);
  });

  it("places a 422's field errors on their rows, the variants' own under the rows, the rest as general", () => {
    const error = new ApiError(422, "x", "x", [
      { field: "variants.1.percent", message: "Too big." },
      { field: "variants", message: "Percentages must add up to 100." },
      { field: "channel", message: "Unknown channel." },
    ]);
    expect(serverProblems(error)).toEqual({
      problems: { "variants.1.percent": "Too big.", variants: "Percentages must add up to 100." },
      general: "Unknown channel.",
    });
    expect(serverProblems(new Error("offline"))).toEqual({ problems: {}, general: null });
  });

  it("reads a p-value in plain words", () => {
    expect(evidenceOf(null)).toBeNull();
    expect(evidenceOf(0.01)).toBe("likely");
    expect(evidenceOf(0.2)).toBe("notEnough");
  });
});
