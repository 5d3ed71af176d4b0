import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
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
import { NodeText } from "./node-fields.tsx";

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
      {props.issues.length > 0 && (
        <Box component="ul" sx={{ m: 0, ps: 2.5, color: "error.main" }} aria-label={t("panel.edgeIssues")}>
          {props.issues.map((issue) => (
            <Typography component="li" variant="body2" key={issue}>
              {issue}
            </Typography>
          ))}
        </Box>
      )}
      <TextField
        select
        size="small"
        label={t("condition.kind")}
        value={condition.kind}
        onChange={(e) =>
          setCondition(conditionOfKind(e.target.value as WorkflowConditionKind, props.variables), "kind")
        }
      >
        {KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`condition.kinds.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
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
      <div>
        <Button color="error" startIcon={<DeleteOutline />} onClick={props.onDelete}>
          {t("panel.deleteEdge")}
        </Button>
      </div>
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
      <TextField
        select
        size="small"
        required
        label={t("condition.variable")}
        value={variable ? condition.variable : ""}
        helperText={props.variables.length === 0 ? t("condition.noVariables") : undefined}
        onChange={(e) => props.onChange({ ...condition, variable: e.target.value }, "variable")}
      >
        {props.variables.map((v) => (
          <MenuItem key={v.name} value={v.name}>
            {v.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t("condition.operator")}
        value={condition.operator}
        onChange={(e) =>
          props.onChange({ ...condition, operator: e.target.value as VariableConditionValue["operator"] }, "operator")
        }
      >
        {WORKFLOW_OPERATORS.map((op) => (
          <MenuItem key={op} value={op}>
            {t(`condition.operators.${op}`)}
          </MenuItem>
        ))}
      </TextField>
      {!unary &&
        (choices ? (
          <TextField
            select
            size="small"
            required
            label={t("condition.value")}
            value={choices.includes(condition.value ?? "") ? condition.value : ""}
            onChange={(e) => props.onChange({ ...condition, value: e.target.value }, "value")}
          >
            {choices.map((choice) => (
              <MenuItem key={choice} value={choice}>
                {choice}
              </MenuItem>
            ))}
          </TextField>
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
