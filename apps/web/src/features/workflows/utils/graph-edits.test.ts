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

  it("takes the path left alone always again when its sibling is deleted, unless its condition was written", () => {
    let graph = connect(base(), "start", "ask").graph;
    graph = connect(graph, "ask", "end").graph;
    graph = connect(graph, "ask", "agent").graph;
    const [toEnd, toAgent] = graph.edges.filter((e) => e.source === "ask");
    if (!toEnd || !toAgent) throw new Error("the two paths were not made");
    // The default one deleted: the blank model condition left would block Publish.
    expect(removeElements(graph, [], [toEnd.id]).edges.find((e) => e.id === toAgent.id)?.condition).toEqual({
      kind: "always",
    });
    // The new one deleted (or its step): the default left becomes the only, unconditional way out.
    expect(removeElements(graph, [], [toAgent.id]).edges.find((e) => e.id === toEnd.id)?.condition).toEqual({
      kind: "always",
    });
    expect(removeElements(graph, ["agent"], []).edges.find((e) => e.id === toEnd.id)?.condition).toEqual({
      kind: "always",
    });
    // A described condition is the author's: it stays.
    const described = {
      ...graph,
      edges: graph.edges.map((e) =>
        e.id === toAgent.id
          ? { ...e, condition: { kind: "model" as const, description: "The caller asks for a person" } }
          : e,
      ),
    };
    expect(removeElements(described, [], [toEnd.id]).edges.find((e) => e.id === toAgent.id)?.condition).toEqual({
      kind: "model",
      description: "The caller asks for a person",
    });
    // Edges of other steps are left as they were.
    expect(removeElements(graph, [], [toEnd.id]).edges.find((e) => e.source === "start")?.condition).toEqual({
      kind: "always",
    });
  });

  it("moves nodes to whole-pixel positions", () => {
    const graph = moveNodes(
      addNode(base(), blankNode("end", "bye", "Bye", { x: 0, y: 0 })),
      new Map([["bye", { x: 10.4, y: -3.6 }]]),
    );
    expect(graph.nodes.at(-1)?.position).toEqual({ x: 10, y: -4 });
  });
});
