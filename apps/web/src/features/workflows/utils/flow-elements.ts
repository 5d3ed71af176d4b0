import type { WorkflowCondition, WorkflowGraph, WorkflowIssue, WorkflowNode, WorkflowNodeType } from "@parley/contract";
import type { ConditionFlowEdge } from "../components/condition-edge.tsx";
import type { CardNode } from "../components/workflow-node-card.tsx";
import type { NodeSize } from "./auto-layout.ts";

export interface Selection {
  nodes: readonly string[];
  edges: readonly string[];
}
export const NOTHING_SELECTED: Selection = { nodes: [], edges: [] };

/** Issue texts per node and per edge id, for the markers. */
export function issuesByElement(issues: readonly WorkflowIssue[], text: (issue: WorkflowIssue) => string) {
  const nodes = new Map<string, string[]>();
  const edges = new Map<string, string[]>();
  for (const issue of issues) {
    // An issue about an edge is marked on the edge; its node (the one it leaves) is named only for context.
    if (issue.edge_id) edges.set(issue.edge_id, [...(edges.get(issue.edge_id) ?? []), text(issue)]);
    else if (issue.node_id) nodes.set(issue.node_id, [...(nodes.get(issue.node_id) ?? []), text(issue)]);
  }
  return { nodes, edges };
}

/** What a node does, in one line for its card. */
export function nodeSummary(node: WorkflowNode): string {
  switch (node.type) {
    case "start":
      return node.data.greeting;
    case "conversation":
      return node.data.prompt;
    case "condition":
      return "";
    case "tool":
      return node.data.tool.kind === "mcp" ? node.data.tool.tool_name : "";
    case "knowledge":
      return node.data.query;
    case "transfer":
      return node.data.destination;
    case "handoff":
      return node.data.member;
    case "end":
      return node.data.message;
  }
}

export interface CanvasLabels {
  kind: (type: WorkflowNodeType) => string;
  condition: (condition: WorkflowCondition) => string;
}

/** The canvas's nodes: each workflow node with its card data, selection and last measured size. */
export function flowNodes(
  graph: WorkflowGraph,
  options: {
    labels: CanvasLabels;
    issues: ReadonlyMap<string, string[]>;
    selection: Selection;
    sizes: ReadonlyMap<string, NodeSize>;
    activeNodeId: string | null;
    toolNames: ReadonlyMap<string, string>;
  },
): CardNode[] {
  return graph.nodes.map((node) => {
    const issues = options.issues.get(node.id) ?? [];
    const kindLabel = options.labels.kind(node.type);
    const toolName =
      node.type === "tool" && node.data.tool.kind === "function"
        ? options.toolNames.get(node.data.tool.function_id)
        : undefined;
    return {
      id: node.id,
      type: node.type,
      position: node.position,
      selected: options.selection.nodes.includes(node.id),
      // React Flow re-measures a node only when told its size is unknown: hand back what it measured.
      measured: options.sizes.get(node.id),
      ariaLabel: `${kindLabel}: ${node.data.name || kindLabel}${issues.length ? ` (${issues.join(" ")})` : ""}`,
      data: {
        node,
        kindLabel,
        summary: toolName ?? nodeSummary(node),
        issues,
        active: node.id === options.activeNodeId,
      },
    };
  });
}

export function flowEdges(
  graph: WorkflowGraph,
  options: {
    labels: CanvasLabels;
    issues: ReadonlyMap<string, string[]>;
    selection: Selection;
    takenEdgeIds: ReadonlySet<string>;
  },
): ConditionFlowEdge[] {
  return graph.edges.map((edge) => ({
    id: edge.id,
    type: "condition",
    source: edge.source,
    target: edge.target,
    selected: options.selection.edges.includes(edge.id),
    ariaLabel: options.labels.condition(edge.condition),
    data: {
      edge,
      label: edge.label?.trim() || options.labels.condition(edge.condition),
      issues: options.issues.get(edge.id) ?? [],
      taken: options.takenEdgeIds.has(edge.id),
    },
  }));
}
