import { describe, expect, it } from "vitest";
import { patchAt, removeAt } from "./row-edits.ts";

describe("editing a list row by its place", () => {
  const rows = [
    { name: "a", value: 1 },
    { name: "b", value: 2 },
  ];

  it("changes only the entry at the index, in a copy", () => {
    const next = patchAt(rows, 1, { value: 5 });
    expect(next).toEqual([
      { name: "a", value: 1 },
      { name: "b", value: 5 },
    ]);
    expect(rows[1]?.value).toBe(2);
  });

  it("removes only the entry at the index", () => {
    expect(removeAt(rows, 0)).toEqual([{ name: "b", value: 2 }]);
    expect(removeAt(rows, 5)).toEqual(rows);
  });
});
