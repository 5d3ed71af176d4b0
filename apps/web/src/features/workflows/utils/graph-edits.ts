import type {
  WorkflowCondition,
  WorkflowEdge,
  WorkflowGraph,
  WorkflowNode,
  WorkflowNodeType,
  WorkflowPosition,
} from "@parley/contract";

/** The first id of the form `<prefix>_<n>` not taken yet. */
export function freeId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`${prefix}_${n}`)) return `${prefix}_${n}`;
}

/** A node of the given kind with empty fields, named by the caller (the name is shown on the canvas). */
export function blankNode(type: WorkflowNodeType, id: string, name: string, position: WorkflowPosition): WorkflowNode {
  switch (type) {
    case "start":
      return { id, type, position, data: { name, greeting: "", prompt: "" } };
    case "conversation":
      return { id, type, position, data: { name, prompt: "", collect: [] } };
    case "condition":
      return { id, type, position, data: { name } };
    case "tool":
      return {
        id,
        type,
        position,
        data: { name, tool: { kind: "function", function_id: "" }, arguments: {}, result_variable: null },
      };
    case "knowledge":
      return { id, type, position, data: { name, query: "", result_variable: "" } };
    case "transfer":
      return { id, type, position, data: { name, destination: "", message: "" } };
    case "handoff":
      return { id, type, position, data: { name, member: "", message: "" } };
    case "end":
      return { id, type, position, data: { name, message: "" } };
  }
}

export function addNode(graph: WorkflowGraph, node: WorkflowNode): WorkflowGraph {
  return { ...graph, nodes: [...graph.nodes, node] };
}

/** Nodes that end the conversation: nothing leaves them. */
export const isTerminal = (type: WorkflowNodeType) => type === "end" || type === "transfer" || type === "handoff";

/**
 * Joins two nodes. The only edge out of a node is taken always; once a second one leaves it, the
 * first becomes the default and the new one asks for a condition (the model's judgement, to be
 * described), which is what the validator requires of several edges.
 * Returns the graph unchanged for a self-loop, a repeated edge, an edge out of an end or transfer,
 * or an edge into the start.
 */
export function connect(
  graph: WorkflowGraph,
  source: string,
  target: string,
): { graph: WorkflowGraph; edgeId: string | null } {
  const from = graph.nodes.find((n) => n.id === source);
  const to = graph.nodes.find((n) => n.id === target);
  const repeated = graph.edges.some((e) => e.source === source && e.target === target);
  if (!from || !to || source === target || repeated || isTerminal(from.type) || to.type === "start") {
    return { graph, edgeId: null };
  }
  const siblings = graph.edges.filter((e) => e.source === source);
  const condition: WorkflowCondition = siblings.length === 0 ? { kind: "always" } : { kind: "model", description: "" };
  const edge: WorkflowEdge = {
    id: freeId(
      "edge",
      graph.edges.map((e) => e.id),
    ),
    source,
    target,
    condition,
  };
  const edges = graph.edges.map((e) =>
    e.source === source && e.condition.kind === "always" ? { ...e, condition: { kind: "default" as const } } : e,
  );
  return { graph: { ...graph, edges: [...edges, edge] }, edgeId: edge.id };
}

/** A condition that says nothing yet: the model's judgement not described, or no variable chosen. */
function isBlank(condition: WorkflowCondition): boolean {
  if (condition.kind === "model") return !condition.description.trim();
  if (condition.kind === "variable") return !condition.variable;
  return false;
}

/**
 * Removes nodes (with every edge touching them) and edges. The reverse of `connect`: when a node
 * is left with one way out, that path is taken always again if it was the default or its
 * condition was never filled in, so deleting one of two paths does not leave the other blocking
 * Publish. A path whose condition was written is kept as written (a step that waits for the
 * caller may well leave by one conditional path).
 */
export function removeElements(
  graph: WorkflowGraph,
  nodeIds: readonly string[],
  edgeIds: readonly string[],
): WorkflowGraph {
  const nodes = new Set(nodeIds);
  const removed = new Set(edgeIds);
  const kept = graph.edges.filter((e) => !removed.has(e.id) && !nodes.has(e.source) && !nodes.has(e.target));
  const outgoing = (source: string, edges: readonly WorkflowEdge[]) => edges.filter((e) => e.source === source).length;
  return {
    nodes: graph.nodes.filter((n) => !nodes.has(n.id)),
    edges: kept.map((edge) => {
      const lostSiblings = outgoing(edge.source, graph.edges) > 1 && outgoing(edge.source, kept) === 1;
      const loose = edge.condition.kind === "default" || isBlank(edge.condition);
      return lostSiblings && loose ? { ...edge, condition: { kind: "always" as const } } : edge;
    }),
  };
}

/** Replaces one node (same id), e.g. after its fields were edited. */
export function replaceNode(graph: WorkflowGraph, node: WorkflowNode): WorkflowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.id === node.id ? node : n)) };
}

export function replaceEdge(graph: WorkflowGraph, edge: WorkflowEdge): WorkflowGraph {
  return { ...graph, edges: graph.edges.map((e) => (e.id === edge.id ? edge : e)) };
}

/** Moves nodes; positions are rounded so a saved draft does not carry sub-pixel noise. */
export function moveNodes(graph: WorkflowGraph, positions: ReadonlyMap<string, WorkflowPosition>): WorkflowGraph {
  if (positions.size === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      const to = positions.get(n.id);
      return to ? { ...n, position: { x: Math.round(to.x), y: Math.round(to.y) } } : n;
    }),
  };
}
