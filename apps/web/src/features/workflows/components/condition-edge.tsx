import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import type { WorkflowEdge } from "@parley/contract";
import { BaseEdge, type Edge, EdgeLabelRenderer, type EdgeProps, getSmoothStepPath, useStoreApi } from "@xyflow/react";
import { memo } from "react";

export interface ConditionEdgeData extends Record<string, unknown> {
  edge: WorkflowEdge;
  /** The condition in a few words. */
  label: string;
  issues: string[];
  /** The text test went along it. */
  taken: boolean;
}
export type ConditionFlowEdge = Edge<ConditionEdgeData, "condition">;

/** An edge with its condition written on it; red while the validator has something to say about it. */
export const ConditionEdge = memo(function ConditionEdge(props: EdgeProps<ConditionFlowEdge>) {
  const theme = useTheme();
  const store = useStoreApi();
  const [path, labelX, labelY] = getSmoothStepPath({
    sourceX: props.sourceX,
    sourceY: props.sourceY,
    sourcePosition: props.sourcePosition,
    targetX: props.targetX,
    targetY: props.targetY,
    targetPosition: props.targetPosition,
    borderRadius: 12,
  });
  const flagged = (props.data?.issues.length ?? 0) > 0;
  const stroke = flagged
    ? theme.palette.error.main
    : props.selected
      ? theme.palette.primary.main
      : props.data?.taken
        ? theme.palette.success.main
        : theme.palette.text.secondary;
  const text = props.data?.label ?? "";
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        style={{
          stroke,
          strokeWidth: props.selected || flagged ? 2.5 : 1.5,
          strokeDasharray: flagged ? "6 4" : undefined,
        }}
        interactionWidth={24}
      />
      {(text || flagged) && (
        <EdgeLabelRenderer>
          {/* The label is the edge's larger target: pressing it selects the edge, like its line. */}
          <Box
            className="nodrag nopan"
            data-edge-label={props.id}
            // Placed with an inline style: the theme's right-to-left pass rewrites sx, and a label must
            // sit at the same point of the (always left-to-right) diagram in every language.
            style={{
              position: "absolute",
              left: 0,
              top: 0,
              transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`,
              pointerEvents: "all",
            }}
            sx={{
              maxWidth: 200,
              px: 1,
              py: 0.25,
              borderRadius: 1,
              border: 1,
              borderColor: flagged ? "error.main" : "divider",
              bgcolor: "background.paper",
              color: flagged ? "error.main" : "text.primary",
              cursor: "pointer",
              fontSize: 12,
              whiteSpace: "nowrap",
              overflow: "hidden",
              textOverflow: "ellipsis",
            }}
            dir="auto"
            title={[text, ...(props.data?.issues ?? [])].filter(Boolean).join("\n")}
            onClick={() => {
              store.getState().addSelectedEdges([props.id]);
            }}
          >
            {flagged ? `⚠ ${text}` : text}
          </Box>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
