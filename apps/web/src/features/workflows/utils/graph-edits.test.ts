import type { WorkflowGraph } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { addNode, blankNode, connect, freeId, moveNodes, removeElements } from "./graph-edits.ts";
import { stepsGraph } from "./steps-graph.ts";

const base = (): WorkflowGraph =>
  stepsGraph([
    ["start", "start", "Start"],
    ["conversation", "ask", "Ask"],
    ["end", "end", "End"],
    ["transfer", "agent", "Agent"],
  ]);

describe("graph edits", () => {
  it("names new elements with the first free id", () => {
    expect(freeId("conversation", ["conversation_1", "conversation_3"])).toBe("conversation_2");
  });

  it("takes the only edge out of a node always, and asks for conditions once there are several", () => {
    let graph = connect(base(), "start", "ask").graph;
    expect(graph.edges[0]?.condition).toEqual({ kind: "always" });
    graph = connect(graph, "ask", "end").graph;
    const second = connect(graph, "ask", "agent");
    graph = second.graph;
    const out = graph.edges.filter((e) => e.source === "ask");
    expect(out.map((e) => e.condition.kind)).toEqual(["default", "model"]);
    expect(second.edgeId).toBe(out[1]?.id);
  });

  it("refuses self-loops, repeats, edges out of an end or into the start", () => {
    const graph = connect(base(), "start", "ask").graph;
    for (const [from, to] of [
      ["ask", "ask"],
      ["start", "ask"],
      ["end", "ask"],
      ["agent", "ask"],
      ["ask", "start"],
    ] as const) {
      expect(connect(graph, from, to)).toEqual({ graph, edgeId: null });
    }
  });

  it("removes a node with the edges touching it", () => {
    let graph = connect(base(), "start", "ask").graph;
    graph = connect(graph, "ask", "end").graph;
    graph = removeElements(graph, ["ask"], []);
    expect(graph.nodes.map((n) => n.id)).toEqual(["start", "end", "agent"]);
    expect(graph.edges).toEqual([]);
  });

  it("moves nodes to whole-pixel positions", () => {
    const graph = moveNodes(
      addNode(base(), blankNode("end", "bye", "Bye", { x: 0, y: 0 })),
      new Map([["bye", { x: 10.4, y: -3.6 }]]),
    );
    expect(graph.nodes.at(-1)?.position).toEqual({ x: 10, y: -4 });
  });
});
