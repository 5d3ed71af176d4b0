import "@xyflow/react/dist/style.css";
import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import type { WorkflowGraph, WorkflowNodeType, WorkflowPosition } from "@parley/contract";
import {
  Background,
  Controls,
  type EdgeChange,
  MarkerType,
  MiniMap,
  type NodeChange,
  ReactFlow,
  useReactFlow,
} from "@xyflow/react";
import { type DragEvent, useCallback, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useElementWidth } from "../../../lib/use-element-width.ts";
import type { NodeSize } from "../utils/auto-layout.ts";
import type { Selection } from "../utils/flow-elements.ts";
import { connect, moveNodes, removeElements } from "../utils/graph-edits.ts";
import { ConditionEdge, type ConditionFlowEdge } from "./condition-edge.tsx";
import { kindColor } from "./node-kinds.tsx";
import { type CardNode, WorkflowNodeCard } from "./workflow-node-card.tsx";

/**
 * The narrowest canvas that shows the overview map. The map takes 200 × 150 px in a corner: on the
 * ≈570 px canvas of a 1440 px screen it lay over the steps the fitted view had just placed there,
 * and a graph that fits such a canvas needs no overview anyway.
 */
const MINIMAP_MIN_WIDTH = 800;

/** The drag type a palette entry carries: the kind of node it adds. */
export const NODE_DRAG_TYPE = "application/x-parley-workflow-node";

const nodeTypes = {
  start: WorkflowNodeCard,
  conversation: WorkflowNodeCard,
  condition: WorkflowNodeCard,
  tool: WorkflowNodeCard,
  knowledge: WorkflowNodeCard,
  transfer: WorkflowNodeCard,
  end: WorkflowNodeCard,
};
const edgeTypes = { condition: ConditionEdge };

/**
 * The graph on @xyflow/react: drag to move, drop from the palette, connect handle to handle,
 * Delete removes the selection, arrows move it. The graph itself is the builder's (undoable) draft;
 * this component turns the canvas's changes into edits of it.
 */
export function WorkflowCanvas(props: {
  graph: WorkflowGraph;
  nodes: CardNode[];
  edges: ConditionFlowEdge[];
  onEdit: (change: (graph: WorkflowGraph) => WorkflowGraph, group?: string) => void;
  onSelect: (selection: Selection) => void;
  onMeasured: (sizes: Map<string, NodeSize>) => void;
  onDropKind: (type: WorkflowNodeType, position: WorkflowPosition) => void;
  onConnected: (edgeId: string) => void;
}) {
  const theme = useTheme();
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const flow = useReactFlow();
  const box = useRef<HTMLDivElement>(null);
  // The minimap is an extra (never on a phone): its width is learnt without forcing a layout.
  const wide = useElementWidth(box, { beforePaint: false }) >= MINIMAP_MIN_WIDTH;
  const drags = useRef(0);
  // The undo group of the drag under way; the drop's own position change still belongs to it.
  const dragGroup = useRef<string | null>(null);
  const { onEdit, onSelect, onMeasured, onDropKind, onConnected, graph } = props;
  const selection = useRef<Selection>({ nodes: [], edges: [] });
  selection.current = {
    nodes: props.nodes.filter((n) => n.selected).map((n) => n.id),
    edges: props.edges.filter((e) => e.selected).map((e) => e.id),
  };

  const applySelect = useCallback(
    (changes: readonly (NodeChange<CardNode> | EdgeChange<ConditionFlowEdge>)[], kind: "nodes" | "edges") => {
      const picked = new Set(selection.current[kind]);
      let touched = false;
      for (const change of changes) {
        if (change.type !== "select") continue;
        touched = true;
        if (change.selected) picked.add(change.id);
        else picked.delete(change.id);
      }
      if (!touched) return;
      // Node and edge changes of one click arrive one after the other, before a render: the second
      // must build on the first.
      selection.current = { ...selection.current, [kind]: [...picked] };
      onSelect(selection.current);
    },
    [onSelect],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<CardNode>[]) => {
      const sizes = new Map<string, NodeSize>();
      const moved = new Map<string, WorkflowPosition>();
      for (const change of changes) {
        if (change.type === "dimensions" && change.dimensions) sizes.set(change.id, change.dimensions);
        if (change.type === "position" && change.position) {
          moved.set(change.id, change.position);
        }
      }
      if (sizes.size) onMeasured(sizes);
      // One drag is one undo step; moves by the arrow keys join while they follow each other.
      if (moved.size) onEdit((g) => moveNodes(g, moved), dragGroup.current ?? "keyboard-move");
      applySelect(changes, "nodes");
    },
    [onEdit, onMeasured, applySelect],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<ConditionFlowEdge>[]) => applySelect(changes, "edges"),
    [applySelect],
  );

  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(NODE_DRAG_TYPE) as WorkflowNodeType | "";
    if (!type) return;
    event.preventDefault();
    onDropKind(type, flow.screenToFlowPosition({ x: event.clientX - 120, y: event.clientY - 30 }));
  };

  return (
    // A diagram is laid out in space, not in reading order: it stays left to right in RTL pages
    // (the panels around it turn); text on the cards takes its own direction.
    <Box
      ref={box}
      dir="ltr"
      sx={{ height: "100%", width: "100%" }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <ReactFlow<CardNode, ConditionFlowEdge>
        nodes={props.nodes}
        edges={props.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        colorMode={theme.palette.mode}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStart={() => {
          drags.current += 1;
          dragGroup.current = `drag-${drags.current}`;
        }}
        onNodeDragStop={() => {
          dragGroup.current = null;
        }}
        onConnect={(connection) => {
          const result = connect(graph, connection.source, connection.target);
          if (result.edgeId) {
            onEdit(() => result.graph);
            onConnected(result.edgeId);
          }
        }}
        isValidConnection={(connection) => connect(graph, connection.source, connection.target).edgeId !== null}
        onDelete={({ nodes, edges }) => {
          onEdit((g) =>
            removeElements(
              g,
              nodes.map((n) => n.id),
              edges.map((e) => e.id),
            ),
          );
          onSelect({ nodes: [], edges: [] });
        }}
        defaultEdgeOptions={{ markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 } }}
        fitView
        fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
        minZoom={0.2}
        deleteKeyCode={["Delete", "Backspace"]}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={{
          "node.a11yDescription.default": t("canvas.nodeHelp"),
          "node.a11yDescription.keyboardDisabled": t("canvas.nodeHelp"),
          "node.a11yDescription.ariaLiveMessage": ({ direction, x, y }) => t("canvas.moved", { direction, x, y }),
          "edge.a11yDescription.default": t("canvas.edgeHelp"),
          "controls.ariaLabel": t("canvas.controls"),
          "controls.zoomIn.ariaLabel": t("canvas.zoomIn"),
          "controls.zoomOut.ariaLabel": t("canvas.zoomOut"),
          "controls.fitView.ariaLabel": t("canvas.fitView"),
          "controls.interactive.ariaLabel": t("canvas.interactive"),
          "minimap.ariaLabel": t("canvas.minimap"),
          "handle.ariaLabel": t("canvas.handle"),
        }}
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
        {wide && (
          <MiniMap
            pannable
            zoomable
            nodeColor={(node) => theme.palette[kindColor((node as CardNode).type ?? "conversation")].main}
          />
        )}
      </ReactFlow>
    </Box>
  );
}
