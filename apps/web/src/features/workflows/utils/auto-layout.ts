import type { WorkflowGraph, WorkflowPosition } from "@parley/contract";

/** The size a node is drawn at; unmeasured nodes count as the builder's usual card. */
export interface NodeSize {
  width: number;
  height: number;
}
const CARD: NodeSize = { width: 240, height: 90 };

/**
 * Lays the graph out top to bottom in ranks from the start (dagre's layered layout). dagre is
 * fetched on first use: most visits to the builder never press the button.
 */
export async function autoLayout(
  graph: WorkflowGraph,
  sizes: ReadonlyMap<string, NodeSize>,
): Promise<Map<string, WorkflowPosition>> {
  const { default: dagre } = await import("@dagrejs/dagre");
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 60, ranksep: 80, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { ...(sizes.get(node.id) ?? CARD) });
  for (const edge of graph.edges)
    if (g.hasNode(edge.source) && g.hasNode(edge.target)) g.setEdge(edge.source, edge.target);
  dagre.layout(g);
  const positions = new Map<string, WorkflowPosition>();
  for (const node of graph.nodes) {
    const laid = g.node(node.id);
    const size = sizes.get(node.id) ?? CARD;
    // dagre places centres; the canvas positions a node by its top-left corner.
    if (laid) positions.set(node.id, { x: laid.x - size.width / 2, y: laid.y - size.height / 2 });
  }
  return positions;
}
