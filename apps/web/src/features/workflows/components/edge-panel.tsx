import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  WORKFLOW_OPERATORS,
  WORKFLOW_UNARY_OPERATORS,
  type WorkflowCondition,
  type WorkflowConditionKind,
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowVariable,
} from "@parley/contract";
import { useTranslation } from "react-i18next";
import { IssueList, LineButton, NodeSelect, NodeText, plainOptions } from "./panel-inputs.tsx";

const KINDS: WorkflowConditionKind[] = ["always", "default", "variable", "model"];

function conditionOfKind(kind: WorkflowConditionKind, variables: readonly WorkflowVariable[]): WorkflowCondition {
  switch (kind) {
    case "always":
    case "default":
      return { kind };
    case "variable":
      return { kind, variable: variables[0]?.name ?? "", operator: "eq", value: "" };
    case "model":
      return { kind, description: "" };
  }
}

/** The selected edge: where it goes, when it is taken, an optional label. */
export function EdgePanel(props: {
  edge: WorkflowEdge;
  graph: WorkflowGraph;
  variables: readonly WorkflowVariable[];
  issues: readonly string[];
  onChange: (edge: WorkflowEdge, field: string) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { edge, graph } = props;
  const name = (id: string) => {
    const node = graph.nodes.find((n) => n.id === id);
    return node ? node.data.name || t(`kinds.${node.type}`) : id;
  };
  const condition = edge.condition;
  const setCondition = (next: WorkflowCondition, field: string) => props.onChange({ ...edge, condition: next }, field);
  return (
    <Stack spacing={2} component="section" aria-label={t("panel.edgeTitle")}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("panel.edgeTitle")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("panel.edgeRoute", { from: name(edge.source), to: name(edge.target) })}
      </Typography>
      <IssueList label={t("panel.edgeIssues")} issues={props.issues} />
      <NodeSelect
        label={t("condition.kind")}
        value={condition.kind}
        options={KINDS.map((kind) => ({ value: kind, label: t(`condition.kinds.${kind}`) }))}
        onChange={(kind) => setCondition(conditionOfKind(kind as WorkflowConditionKind, props.variables), "kind")}
      />
      {condition.kind === "model" && (
        <NodeText
          label={t("condition.description")}
          value={condition.description}
          multiline
          required
          helperText={t("condition.descriptionHint")}
          onChange={(description) => setCondition({ ...condition, description }, "description")}
        />
      )}
      {condition.kind === "variable" && (
        <VariableCondition condition={condition} variables={props.variables} onChange={setCondition} />
      )}
      <NodeText
        label={t("condition.label")}
        value={edge.label ?? ""}
        helperText={t("condition.labelHint")}
        onChange={(label) => props.onChange({ ...edge, label: label || undefined }, "label")}
      />
      <LineButton kind="delete" label={t("panel.deleteEdge")} onClick={props.onDelete} />
    </Stack>
  );
}

type VariableConditionValue = Extract<WorkflowCondition, { kind: "variable" }>;

function VariableCondition(props: {
  condition: VariableConditionValue;
  variables: readonly WorkflowVariable[];
  onChange: (condition: WorkflowCondition, field: string) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { condition } = props;
  const variable = props.variables.find((v) => v.name === condition.variable);
  const unary = WORKFLOW_UNARY_OPERATORS.includes(condition.operator);
  const choices =
    variable?.type === "boolean" ? ["true", "false"] : variable?.type === "enum" ? (variable.enum_values ?? []) : null;
  return (
    <>
      <NodeSelect
        required
        label={t("condition.variable")}
        value={variable ? condition.variable : ""}
        helperText={props.variables.length === 0 ? t("condition.noVariables") : undefined}
        options={plainOptions(props.variables.map((v) => v.name))}
        onChange={(name) => props.onChange({ ...condition, variable: name }, "variable")}
      />
      <NodeSelect
        label={t("condition.operator")}
        value={condition.operator}
        options={WORKFLOW_OPERATORS.map((op) => ({ value: op, label: t(`condition.operators.${op}`) }))}
        onChange={(op) =>
          props.onChange({ ...condition, operator: op as VariableConditionValue["operator"] }, "operator")
        }
      />
      {!unary &&
        (choices ? (
          <NodeSelect
            required
            label={t("condition.value")}
            value={choices.includes(condition.value ?? "") ? (condition.value ?? "") : ""}
            options={plainOptions(choices)}
            onChange={(value) => props.onChange({ ...condition, value }, "value")}
          />
        ) : (
          <NodeText
            label={t("condition.value")}
            value={condition.value ?? ""}
            required
            helperText={variable?.type === "date" ? t("condition.dateHint") : undefined}
            onChange={(value) => props.onChange({ ...condition, value }, "value")}
          />
        ))}
    </>
  );
}
