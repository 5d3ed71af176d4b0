import type { WorkflowGraph } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { autoLayout } from "./auto-layout.ts";
import { connect } from "./graph-edits.ts";
import { stepsGraph } from "./steps-graph.ts";

describe("auto-layout", () => {
  it("puts each step below the one it follows, and branches side by side", async () => {
    let graph: WorkflowGraph = stepsGraph([
      ["start", "start", "Start"],
      ["condition", "route", "Route"],
      ["end", "a", "A"],
      ["end", "b", "B"],
    ]);
    for (const [from, to] of [
      ["start", "route"],
      ["route", "a"],
      ["route", "b"],
    ] as const)
      graph = connect(graph, from, to).graph;
    const positions = await autoLayout(graph, new Map());
    const y = (id: string) => positions.get(id)?.y ?? Number.NaN;
    const x = (id: string) => positions.get(id)?.x ?? Number.NaN;
    expect(y("start")).toBeLessThan(y("route"));
    expect(y("route")).toBeLessThan(y("a"));
    expect(y("a")).toBe(y("b"));
    expect(x("a")).not.toBe(x("b"));
  });
});
