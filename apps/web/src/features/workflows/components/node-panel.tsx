import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { WorkflowGraph, WorkflowNode, WorkflowVariable } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { connect, isTerminal } from "../utils/graph-edits.ts";
import { NodeFields, NodeText } from "./node-fields.tsx";
import { KIND_COLOR, kindIcon } from "./node-kinds.tsx";

/**
 * The selected node's fields, a way to join it to another node without dragging a handle
 * (keyboard users), and its removal.
 */
export function NodePanel(props: {
  node: WorkflowNode;
  graph: WorkflowGraph;
  variables: readonly WorkflowVariable[];
  issues: readonly string[];
  onChange: (node: WorkflowNode, field: string) => void;
  onConnect: (target: string) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { node, graph } = props;
  const targets = isTerminal(node.type) ? [] : graph.nodes.filter((n) => connect(graph, node.id, n.id).edgeId !== null);
  return (
    <Stack spacing={2} component="section" aria-label={t("panel.nodeTitle")}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", color: `${KIND_COLOR[node.type]}.main` }}>
        {kindIcon(node.type)}
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, color: "text.primary" }}>
          {t(`kinds.${node.type}`)}
        </Typography>
      </Stack>
      {props.issues.length > 0 && (
        <Box component="ul" sx={{ m: 0, ps: 2.5, color: "error.main" }} aria-label={t("panel.nodeIssues")}>
          {props.issues.map((issue) => (
            <Typography component="li" variant="body2" key={issue}>
              {issue}
            </Typography>
          ))}
        </Box>
      )}
      <NodeText
        label={t("fields.name")}
        value={node.data.name}
        onChange={(name) => props.onChange({ ...node, data: { ...node.data, name } } as WorkflowNode, "name")}
      />
      <NodeFields node={node} variables={props.variables} onChange={props.onChange} />
      {targets.length > 0 && (
        <TextField
          select
          size="small"
          label={t("panel.connectTo")}
          value=""
          helperText={t("panel.connectHint")}
          onChange={(e) => props.onConnect(e.target.value)}
        >
          {targets.map((target) => (
            <MenuItem key={target.id} value={target.id}>
              {target.data.name || t(`kinds.${target.type}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <div>
        <Button color="error" startIcon={<DeleteOutline />} onClick={props.onDelete}>
          {t("panel.deleteNode")}
        </Button>
      </div>
    </Stack>
  );
}
