import type { WorkflowGraph, WorkflowIssue } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { flowEdges, flowNodes, issuesByElement, NOTHING_SELECTED } from "./flow-elements.ts";
import { blankNode, connect } from "./graph-edits.ts";

const at = { x: 0, y: 0 };
const graph = (): WorkflowGraph =>
  connect(
    { nodes: [blankNode("start", "start", "Hello", at), blankNode("end", "end", "", at)], edges: [] },
    "start",
    "end",
  ).graph;
const labels = { kind: (type: string) => `kind:${type}`, condition: (c: { kind: string }) => `when:${c.kind}` };

describe("canvas elements", () => {
  it("places an issue on its edge when it names one, else on its node", () => {
    const issues: WorkflowIssue[] = [
      { code: "dead_end", node_id: "start", message: "a" },
      { code: "ambiguous_edges", node_id: "start", edge_id: "edge_1", message: "b" },
      { code: "no_start", message: "c" },
    ];
    const placed = issuesByElement(issues, (issue) => issue.message);
    expect(placed.nodes.get("start")).toEqual(["a"]);
    expect(placed.edges.get("edge_1")).toEqual(["b"]);
  });

  it("hands React Flow back the sizes it measured, and names each node for screen readers", () => {
    const nodes = flowNodes(graph(), {
      labels,
      issues: new Map([["end", ["no way out"]]]),
      selection: { nodes: ["end"], edges: [] },
      sizes: new Map([["start", { width: 240, height: 80 }]]),
      activeNodeId: "start",
      toolNames: new Map(),
    });
    expect(nodes[0]).toMatchObject({ id: "start", measured: { width: 240, height: 80 }, selected: false });
    expect(nodes[0]?.data.active).toBe(true);
    expect(nodes[1]).toMatchObject({ id: "end", selected: true, measured: undefined });
    // An unnamed node is called by its kind; its issues are part of its name.
    expect(nodes[1]?.ariaLabel).toBe("kind:end: kind:end (no way out)");
  });

  it("writes each edge's condition on it and marks the edges the test walked", () => {
    const edges = flowEdges(graph(), {
      labels,
      issues: new Map(),
      selection: NOTHING_SELECTED,
      takenEdgeIds: new Set(["edge_1"]),
    });
    expect(edges).toHaveLength(1);
    expect(edges[0]?.data).toMatchObject({ label: "when:always", taken: true, issues: [] });
  });
});
