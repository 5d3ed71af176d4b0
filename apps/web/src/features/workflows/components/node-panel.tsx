import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WorkflowGraph, WorkflowNode, WorkflowVariable } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { connect, isTerminal } from "../utils/graph-edits.ts";
import { NodeFields } from "./node-fields.tsx";
import { kindColor, kindIcon } from "./node-kinds.tsx";
import { IssueList, LineButton, NodeSelect, NodeText } from "./panel-inputs.tsx";

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
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", color: `${kindColor(node.type)}.main` }}>
        {kindIcon(node.type)}
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, color: "text.primary" }}>
          {t(`kinds.${node.type}`)}
        </Typography>
      </Stack>
      <IssueList label={t("panel.nodeIssues")} issues={props.issues} />
      <NodeText
        label={t("fields.name")}
        value={node.data.name}
        onChange={(name) => props.onChange({ ...node, data: { ...node.data, name } } as WorkflowNode, "name")}
      />
      <NodeFields node={node} variables={props.variables} onChange={props.onChange} />
      {targets.length > 0 && (
        <NodeSelect
          label={t("panel.connectTo")}
          value=""
          helperText={t("panel.connectHint")}
          options={targets.map((target) => ({
            value: target.id,
            label: target.data.name || t(`kinds.${target.type}`),
          }))}
          onChange={props.onConnect}
        />
      )}
      <LineButton kind="delete" label={t("panel.deleteNode")} onClick={props.onDelete} />
    </Stack>
  );
}
