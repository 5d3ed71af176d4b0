import type { WorkflowGraph, WorkflowNodeType } from "@parley/contract";
import { blankNode } from "./graph-edits.ts";

/** A graph of blank steps, all at the origin and not yet connected: each step is [type, id, name]. */
export function stepsGraph(steps: readonly (readonly [WorkflowNodeType, string, string])[]): WorkflowGraph {
  const origin = { x: 0, y: 0 };
  return { nodes: steps.map(([type, id, name]) => blankNode(type, id, name, origin)), edges: [] };
}
