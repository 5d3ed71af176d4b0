import ErrorOutline from "@mui/icons-material/ErrorOutline";
import Box from "@mui/material/Box";
import { alpha, useTheme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { WorkflowNode, WorkflowNodeType } from "@parley/contract";
import { Handle, type Node, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import { isTerminal } from "../utils/graph-edits.ts";
import { kindColor, kindIcon } from "./node-kinds.tsx";

export interface CardData extends Record<string, unknown> {
  node: WorkflowNode;
  kindLabel: string;
  /** What the node does, in a line (its prompt, destination, message…). */
  summary: string;
  issues: string[];
  /** The text test is at this node now. */
  active: boolean;
}
export type CardNode = Node<CardData, WorkflowNodeType>;

/** Handles twice React Flow's default size: easier to grab, also zoomed out. */
const HANDLE = { width: 12, height: 12 };

/** A node on the canvas: its kind, name and gist, its validation marker, and its handles. */
export const WorkflowNodeCard = memo(function WorkflowNodeCard({ data, selected }: NodeProps<CardNode>) {
  const theme = useTheme();
  const { node, issues, active } = data;
  const color = theme.palette[kindColor(node.type)];
  const flagged = issues.length > 0;
  const ring = active
    ? theme.palette.success.main
    : selected
      ? theme.palette.primary.main
      : flagged
        ? theme.palette.error.main
        : theme.palette.divider;
  return (
    <Box
      data-node-id={node.id}
      data-active={active || undefined}
      sx={{
        width: 240,
        bgcolor: "background.paper",
        color: "text.primary",
        border: 2,
        borderColor: ring,
        borderRadius: 2,
        boxShadow: active ? `0 0 0 4px ${alpha(theme.palette.success.main, 0.35)}` : selected ? 4 : 1,
        overflow: "hidden",
      }}
    >
      {node.type !== "start" && <Handle type="target" position={Position.Top} style={HANDLE} />}
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 1.5,
          py: 0.75,
          bgcolor: alpha(color.main, theme.palette.mode === "dark" ? 0.25 : 0.12),
        }}
      >
        <Box sx={{ color: theme.palette.mode === "dark" ? color.light : color.dark, display: "flex" }} aria-hidden>
          {kindIcon(node.type)}
        </Box>
        <Typography variant="caption" sx={{ fontWeight: 600, flex: 1 }}>
          {data.kindLabel}
        </Typography>
        {flagged && (
          <Tooltip title={issues.join("\n")} slotProps={{ tooltip: { sx: { whiteSpace: "pre-line" } } }}>
            <ErrorOutline fontSize="small" color="error" data-testid="node-issue" />
          </Tooltip>
        )}
      </Box>
      <Box sx={{ px: 1.5, py: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap dir="auto">
          {node.data.name || data.kindLabel}
        </Typography>
        {data.summary && (
          <Typography variant="caption" color="text.secondary" noWrap component="p" dir="auto">
            {data.summary}
          </Typography>
        )}
      </Box>
      {!isTerminal(node.type) && <Handle type="source" position={Position.Bottom} style={HANDLE} />}
    </Box>
  );
});
