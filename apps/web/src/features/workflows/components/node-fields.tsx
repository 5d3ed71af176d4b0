import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WorkflowNode, WorkflowNodeOf, WorkflowNodeType, WorkflowVariable } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { patchAt, removeAt } from "../utils/row-edits.ts";
import { LineButton, NodeText, RowCard } from "./panel-inputs.tsx";
import { ToolFields } from "./tool-fields.tsx";
import { VariableField } from "./variable-field.tsx";

export interface FieldsProps<N extends WorkflowNode> {
  node: N;
  variables: readonly WorkflowVariable[];
  /** The node with new data; `field` groups one field's keystrokes into one undo step. */
  onChange: (node: N, field: string) => void;
}

const withData = <N extends WorkflowNode>(node: N, data: Partial<N["data"]>): N => ({
  ...node,
  data: { ...node.data, ...data },
});

/** One text setting: its locale label, and its hint (the template hint unless it has its own). */
interface TextSpec<N extends WorkflowNode> {
  /** A text field of the node's data. */
  field: keyof N["data"] & string;
  label: string;
  hint?: string;
  multiline?: boolean;
  required?: boolean;
  dir?: "ltr";
}

const TEMPLATE_HINT = "fields.templateHint";

/** The text settings of each kind of node, in the panel's order. */
const TEXTS: { [K in WorkflowNodeType]?: readonly TextSpec<WorkflowNodeOf<K>>[] } = {
  start: [
    { field: "greeting", label: "fields.greeting", hint: "fields.greetingHint", multiline: true },
    { field: "prompt", label: "fields.prompt", hint: TEMPLATE_HINT, multiline: true },
  ],
  conversation: [{ field: "prompt", label: "fields.prompt", hint: TEMPLATE_HINT, multiline: true, required: true }],
  knowledge: [{ field: "query", label: "fields.query", hint: TEMPLATE_HINT, multiline: true, required: true }],
  transfer: [
    { field: "destination", label: "fields.destination", hint: "fields.destinationHint", dir: "ltr", required: true },
    { field: "message", label: "fields.transferMessage", hint: TEMPLATE_HINT, multiline: true },
  ],
  handoff: [
    { field: "member", label: "fields.member", hint: "fields.memberHint", dir: "ltr", required: true },
    { field: "message", label: "fields.handoffMessage", hint: "fields.handoffMessageHint", multiline: true },
  ],
  end: [{ field: "message", label: "fields.endMessage", hint: TEMPLATE_HINT, multiline: true }],
};

/** The fields of one node, by its kind. */
export function NodeFields(props: FieldsProps<WorkflowNode>) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { node } = props;
  const texts = <N extends WorkflowNode>(n: N, specs: readonly TextSpec<N>[] = []) => {
    const data: N["data"] = n.data;
    return specs.map((spec) => (
      <NodeText
        key={spec.field}
        label={t(spec.label)}
        value={String(data[spec.field])}
        multiline={spec.multiline}
        required={spec.required}
        dir={spec.dir}
        helperText={spec.hint && t(spec.hint, { example: "{{variable}}" })}
        // The spec names a text field of this kind of node, so the value fits it.
        onChange={(value) => props.onChange(withData(n, { [spec.field]: value } as Partial<N["data"]>), spec.field)}
      />
    ));
  };
  switch (node.type) {
    case "start":
      return texts(node, TEXTS.start);
    case "conversation":
      return (
        <>
          {texts(node, TEXTS.conversation)}
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
          {texts(node, TEXTS.knowledge)}
          <VariableField
            label={t("fields.resultVariable")}
            value={node.data.result_variable}
            variables={props.variables}
            required
            onChange={(result_variable) => props.onChange(withData(node, { result_variable }), "result_variable")}
          />
        </>
      );
    case "transfer":
      return texts(node, TEXTS.transfer);
    case "handoff":
      return texts(node, TEXTS.handoff);
    case "end":
      return texts(node, TEXTS.end);
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
        <RowCard
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
          key={index}
          head={
            <div style={{ flex: 1 }}>
              <VariableField
                label={t("fields.collectVariable", { n: index + 1 })}
                value={item.variable}
                variables={props.variables}
                onChange={(variable) => update(patchAt(collect, index, { variable }), `collect.${index}.variable`)}
              />
            </div>
          }
          removeLabel={t("fields.collectRemove", { n: index + 1 })}
          onRemove={() => update(removeAt(collect, index), "collect")}
        >
          <NodeText
            label={t("fields.collectDescription", { n: index + 1 })}
            value={item.description}
            onChange={(description) => update(patchAt(collect, index, { description }), `collect.${index}.description`)}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={item.required}
                onChange={(e) => update(patchAt(collect, index, { required: e.target.checked }), "collect")}
              />
            }
            label={t("fields.collectRequired")}
          />
        </RowCard>
      ))}
      <LineButton
        kind="add"
        label={t("fields.collectAdd")}
        onClick={() => update([...collect, { variable: "", description: "", required: true }], "collect")}
      />
    </Stack>
  );
}
