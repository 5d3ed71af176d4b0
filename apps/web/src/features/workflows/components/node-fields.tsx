import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { WorkflowNode, WorkflowNodeOf, WorkflowVariable } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { ToolFields } from "./tool-fields.tsx";
import { VariableField } from "./variable-field.tsx";

export interface FieldsProps<N extends WorkflowNode> {
  node: N;
  variables: readonly WorkflowVariable[];
  /** The node with new data; `field` groups one field's keystrokes into one undo step. */
  onChange: (node: N, field: string) => void;
}

/** A text field of a node, as people type it (their direction). */
export function NodeText(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  helperText?: string;
  dir?: "auto" | "ltr";
  required?: boolean;
}) {
  return (
    <TextField
      size="small"
      fullWidth
      label={props.label}
      value={props.value}
      required={props.required}
      onChange={(e) => props.onChange(e.target.value)}
      multiline={props.multiline}
      minRows={props.multiline ? 3 : undefined}
      maxRows={props.multiline ? 12 : undefined}
      helperText={props.helperText}
      slotProps={{ htmlInput: { dir: props.dir ?? "auto" } }}
    />
  );
}

const withData = <N extends WorkflowNode>(node: N, data: Partial<N["data"]>): N => ({
  ...node,
  data: { ...node.data, ...data },
});

/** The fields of one node, by its kind. */
export function NodeFields(props: FieldsProps<WorkflowNode>) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { node } = props;
  const set = <N extends WorkflowNode>(n: N, field: string, data: Partial<N["data"]>) =>
    props.onChange(withData(n, data), field);
  const example = { example: "{{variable}}" };
  const hint = t("fields.templateHint", example);
  switch (node.type) {
    case "start":
      return (
        <>
          <NodeText
            label={t("fields.greeting")}
            value={node.data.greeting}
            multiline
            helperText={t("fields.greetingHint", example)}
            onChange={(greeting) => set(node, "greeting", { greeting })}
          />
          <NodeText
            label={t("fields.prompt")}
            value={node.data.prompt}
            multiline
            helperText={hint}
            onChange={(prompt) => set(node, "prompt", { prompt })}
          />
        </>
      );
    case "conversation":
      return (
        <>
          <NodeText
            label={t("fields.prompt")}
            value={node.data.prompt}
            multiline
            required
            helperText={hint}
            onChange={(prompt) => set(node, "prompt", { prompt })}
          />
          <CollectFields node={node} variables={props.variables} onChange={props.onChange} />
        </>
      );
    case "condition":
      return (
        <Typography variant="body2" color="text.secondary">
          {t("fields.conditionHint")}
        </Typography>
      );
    case "tool":
      return <ToolFields node={node} variables={props.variables} onChange={props.onChange} />;
    case "knowledge":
      return (
        <>
          <NodeText
            label={t("fields.query")}
            value={node.data.query}
            multiline
            required
            helperText={hint}
            onChange={(query) => set(node, "query", { query })}
          />
          <VariableField
            label={t("fields.resultVariable")}
            value={node.data.result_variable}
            variables={props.variables}
            required
            onChange={(result_variable) => set(node, "result_variable", { result_variable })}
          />
        </>
      );
    case "transfer":
      return (
        <>
          <NodeText
            label={t("fields.destination")}
            value={node.data.destination}
            dir="ltr"
            required
            helperText={t("fields.destinationHint")}
            onChange={(destination) => set(node, "destination", { destination })}
          />
          <NodeText
            label={t("fields.transferMessage")}
            value={node.data.message}
            multiline
            helperText={hint}
            onChange={(message) => set(node, "message", { message })}
          />
        </>
      );
    case "end":
      return (
        <NodeText
          label={t("fields.endMessage")}
          value={node.data.message}
          multiline
          helperText={hint}
          onChange={(message) => set(node, "message", { message })}
        />
      );
  }
}

/** What a conversation step collects: variables the model extracts from what the caller says. */
function CollectFields(props: FieldsProps<WorkflowNodeOf<"conversation">>) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { node } = props;
  const collect = node.data.collect;
  const update = (items: typeof collect, field: string) =>
    props.onChange({ ...node, data: { ...node.data, collect: items } }, field);
  return (
    <Stack spacing={1} role="group" aria-label={t("fields.collect")}>
      <Typography variant="subtitle2" component="p">
        {t("fields.collect")}
      </Typography>
      {collect.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("fields.collectNone")}
        </Typography>
      )}
      {collect.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <Paper key={index} variant="outlined" sx={{ p: 1.5 }}>
          <Stack spacing={1}>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <div style={{ flex: 1 }}>
                <VariableField
                  label={t("fields.collectVariable", { n: index + 1 })}
                  value={item.variable}
                  variables={props.variables}
                  onChange={(variable) =>
                    update(
                      collect.map((c, i) => (i === index ? { ...c, variable } : c)),
                      `collect.${index}.variable`,
                    )
                  }
                />
              </div>
              <IconButton
                aria-label={t("fields.collectRemove", { n: index + 1 })}
                onClick={() =>
                  update(
                    collect.filter((_, i) => i !== index),
                    "collect",
                  )
                }
              >
                <DeleteOutline />
              </IconButton>
            </Stack>
            <NodeText
              label={t("fields.collectDescription", { n: index + 1 })}
              value={item.description}
              onChange={(description) =>
                update(
                  collect.map((c, i) => (i === index ? { ...c, description } : c)),
                  `collect.${index}.description`,
                )
              }
            />
            <FormControlLabel
              control={
                <Checkbox
                  checked={item.required}
                  onChange={(e) =>
                    update(
                      collect.map((c, i) => (i === index ? { ...c, required: e.target.checked } : c)),
                      "collect",
                    )
                  }
                />
              }
              label={t("fields.collectRequired")}
            />
          </Stack>
        </Paper>
      ))}
      <div>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => update([...collect, { variable: "", description: "", required: true }], "collect")}
        >
          {t("fields.collectAdd")}
        </Button>
      </div>
    </Stack>
  );
}
