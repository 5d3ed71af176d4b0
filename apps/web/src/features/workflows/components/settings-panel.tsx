import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { WORKFLOW_VARIABLE_TYPES, type WorkflowVariable, type WorkflowVariableType } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { ChipsInput } from "../../../components/chips-input.tsx";
import type { WorkflowDraft } from "../hooks/use-workflow-draft.ts";
import { patchAt, removeAt } from "../utils/row-edits.ts";
import { LineButton, NodeSelect, NodeText, RowCard } from "./panel-inputs.tsx";

/** The workflow as a whole: its name and description, the prompt every step adds to, its variables. */
export function SettingsPanel(props: {
  draft: WorkflowDraft;
  onChange: (change: Partial<WorkflowDraft>, field: string) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { draft } = props;
  return (
    <Stack spacing={2} component="section" aria-label={t("settings.title")}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("settings.title")}
      </Typography>
      <NodeText
        label={t("settings.name")}
        value={draft.name}
        required
        onChange={(name) => props.onChange({ name }, "name")}
      />
      <NodeText
        label={t("settings.description")}
        value={draft.description}
        multiline
        onChange={(description) => props.onChange({ description }, "description")}
      />
      <NodeText
        label={t("settings.globalPrompt")}
        value={draft.global_prompt}
        multiline
        helperText={t("settings.globalPromptHint")}
        onChange={(global_prompt) => props.onChange({ global_prompt }, "global_prompt")}
      />
      <VariablesEditor
        variables={draft.variables}
        onChange={(variables, field) => props.onChange({ variables }, field)}
      />
    </Stack>
  );
}

function VariablesEditor(props: {
  variables: WorkflowVariable[];
  onChange: (variables: WorkflowVariable[], field: string) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { variables } = props;
  const update = (index: number, patch: Partial<WorkflowVariable>, field: string) =>
    props.onChange(patchAt(variables, index, patch), `variables.${index}.${field}`);
  return (
    <Stack spacing={1} role="group" aria-label={t("settings.variables")}>
      <Typography variant="subtitle2" component="h3">
        {t("settings.variables")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("settings.variablesHint")}
      </Typography>
      {variables.map((variable, index) => (
        <RowCard
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional (a rename must keep its row)
          key={index}
          head={
            <>
              <TextField
                size="small"
                label={t("settings.variableName", { n: index + 1 })}
                value={variable.name}
                onChange={(e) => update(index, { name: e.target.value.trim() }, "name")}
                sx={{ flex: 1 }}
                slotProps={{ htmlInput: { dir: "ltr", spellCheck: false } }}
              />
              <NodeSelect
                label={t("settings.variableType", { n: index + 1 })}
                value={variable.type}
                options={WORKFLOW_VARIABLE_TYPES.map((type) => ({ value: type, label: t(`settings.types.${type}`) }))}
                onChange={(type) => update(index, { type: type as WorkflowVariableType }, "type")}
                sx={{ width: 130 }}
              />
            </>
          }
          removeLabel={t("settings.variableRemove", { n: index + 1 })}
          onRemove={() => props.onChange(removeAt(variables, index), "variables")}
        >
          <NodeText
            label={t("settings.variableDescription", { n: index + 1 })}
            value={variable.description}
            onChange={(description) => update(index, { description }, "description")}
          />
          {variable.type === "enum" && (
            <ChipsInput
              label={t("settings.enumValues", { n: index + 1 })}
              value={variable.enum_values ?? []}
              onChange={(enum_values) => update(index, { enum_values }, "enum_values")}
            />
          )}
        </RowCard>
      ))}
      <LineButton
        kind="add"
        label={t("settings.variableAdd")}
        onClick={() => props.onChange([...variables, { name: "", type: "string", description: "" }], "variables")}
      />
    </Stack>
  );
}
