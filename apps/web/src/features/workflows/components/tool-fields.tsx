import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Alert from "@mui/material/Alert";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import type { WorkflowNodeOf, WorkflowToolRef } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFunctions } from "../../../api/functions.ts";
import { useMcpServers, useMcpTools } from "../../../api/mcp-servers.ts";
import { errorText } from "../../../components/error-text.ts";
import { type KeyValueRow, recordToRows, rowsToRecord } from "../../../components/key-value-rows.tsx";
import { patchAt, removeAt } from "../utils/row-edits.ts";
import type { FieldsProps } from "./node-fields.tsx";
import { LineButton, NodeSelect, plainOptions } from "./panel-inputs.tsx";
import { VariableField } from "./variable-field.tsx";

type ToolNode = WorkflowNodeOf<"tool">;

/** The argument names a JSON schema declares (`properties`), in its order. */
function schemaArguments(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

/** Arguments for the names the tool declares, keeping what was already written for each. */
const argumentsFor = (names: string[], current: Record<string, string>) =>
  Object.fromEntries(names.map((name) => [name, current[name] ?? `{{${name}}}`]));

/** A tool node: which function or MCP tool, its arguments from the variables, and where its result goes. */
export function ToolFields(props: FieldsProps<ToolNode>) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { node } = props;
  const tool = node.data.tool;
  const setTool = (next: WorkflowToolRef, args: Record<string, string>) =>
    props.onChange({ ...node, data: { ...node.data, tool: next, arguments: args } }, "tool");
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={tool.kind}
        aria-label={t("fields.toolKind")}
        onChange={(_, kind: WorkflowToolRef["kind"] | null) => {
          if (!kind || kind === tool.kind) return;
          setTool(kind === "function" ? { kind, function_id: "" } : { kind, mcp_server_id: "", tool_name: "" }, {});
        }}
      >
        <ToggleButton value="function">{t("fields.toolFunction")}</ToggleButton>
        <ToggleButton value="mcp">{t("fields.toolMcp")}</ToggleButton>
      </ToggleButtonGroup>
      {tool.kind === "function" ? (
        <FunctionPicker node={node} onPick={setTool} />
      ) : (
        <McpPicker node={node} onPick={setTool} />
      )}
      <ArgumentRows
        key={node.id}
        value={node.data.arguments}
        onChange={(args) => props.onChange({ ...node, data: { ...node.data, arguments: args } }, "arguments")}
      />
      <VariableField
        label={t("fields.toolResult")}
        helperText={t("fields.toolResultHint")}
        value={node.data.result_variable ?? ""}
        variables={props.variables}
        onChange={(name) =>
          props.onChange({ ...node, data: { ...node.data, result_variable: name || null } }, "result_variable")
        }
      />
    </>
  );
}

/**
 * A required pick among the workspace's functions or tool servers: blank while the saved one is not
 * (or no longer) listed, and saying so when the workspace has none.
 */
function ItemSelect(props: {
  label: string;
  query: { data?: readonly { id: string; name: string }[]; isPending: boolean };
  none: string;
  value: string;
  onPick: (id: string) => void;
}) {
  const list = props.query.data ?? [];
  return (
    <NodeSelect
      fullWidth
      required
      label={props.label}
      value={list.some((item) => item.id === props.value) ? props.value : ""}
      helperText={!props.query.isPending && list.length === 0 ? props.none : undefined}
      options={list.map((item) => ({ value: item.id, label: item.name }))}
      onChange={props.onPick}
    />
  );
}

function FunctionPicker(props: {
  node: ToolNode;
  onPick: (tool: WorkflowToolRef, args: Record<string, string>) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const functions = useFunctions();
  const tool = props.node.data.tool;
  const selected = tool.kind === "function" ? tool.function_id : "";
  if (functions.error) return <Alert severity="error">{errorText(functions.error, t("fields.functionsFailed"))}</Alert>;
  const pick = (id: string) => {
    const fn = functions.data?.find((f) => f.id === id);
    if (fn) {
      props.onPick(
        { kind: "function", function_id: fn.id },
        argumentsFor(schemaArguments(fn.parameters), props.node.data.arguments),
      );
    }
  };
  return (
    <ItemSelect
      label={t("fields.function")}
      query={functions}
      none={t("fields.noFunctions")}
      value={selected}
      onPick={pick}
    />
  );
}

function McpPicker(props: { node: ToolNode; onPick: (tool: WorkflowToolRef, args: Record<string, string>) => void }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const servers = useMcpServers();
  const tool = props.node.data.tool;
  const serverId = tool.kind === "mcp" ? tool.mcp_server_id : "";
  const toolName = tool.kind === "mcp" ? tool.tool_name : "";
  if (servers.error) return <Alert severity="error">{errorText(servers.error, t("fields.serversFailed"))}</Alert>;
  const pick = (id: string) => props.onPick({ kind: "mcp", mcp_server_id: id, tool_name: "" }, {});
  return (
    <>
      <ItemSelect
        label={t("fields.mcpServer")}
        query={servers}
        none={t("fields.noServers")}
        value={serverId}
        onPick={pick}
      />
      {serverId && <McpToolPicker serverId={serverId} toolName={toolName} node={props.node} onPick={props.onPick} />}
    </>
  );
}

function McpToolPicker(props: {
  serverId: string;
  toolName: string;
  node: ToolNode;
  onPick: (tool: WorkflowToolRef, args: Record<string, string>) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const tools = useMcpTools(props.serverId);
  const list = tools.data ?? [];
  if (tools.error) {
    // The server could not be asked for its tools right now: the name can still be typed.
    return (
      <TextField
        size="small"
        fullWidth
        required
        label={t("fields.mcpTool")}
        value={props.toolName}
        helperText={errorText(tools.error, t("fields.toolsFailed"))}
        onChange={(e) =>
          props.onPick(
            { kind: "mcp", mcp_server_id: props.serverId, tool_name: e.target.value },
            props.node.data.arguments,
          )
        }
        slotProps={{ htmlInput: { dir: "ltr" } }}
      />
    );
  }
  return (
    <NodeSelect
      fullWidth
      required
      label={t("fields.mcpTool")}
      value={list.some((tool) => tool.name === props.toolName) ? props.toolName : ""}
      helperText={tools.isPending ? t("fields.toolsLoading") : undefined}
      options={plainOptions(list.map((tool) => tool.name))}
      onChange={(name) => {
        const tool = list.find((item) => item.name === name);
        if (tool) {
          props.onPick(
            { kind: "mcp", mcp_server_id: props.serverId, tool_name: tool.name },
            argumentsFor(schemaArguments(tool.input_schema), props.node.data.arguments),
          );
        }
      }}
    />
  );
}

/** An argument's two inputs: the name as the tool declares it (left to right), the template as typed. */
const ARGUMENT_PARTS = [
  { part: "key", label: "fields.argumentName", dir: "ltr" },
  { part: "value", label: "fields.argumentValue", dir: "auto" },
] as const;

/** Argument name → template rows; a row whose name is still empty stays on screen but is not saved. */
function ArgumentRows(props: { value: Record<string, string>; onChange: (value: Record<string, string>) => void }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const [rows, setRows] = useState(() => recordToRows(props.value));
  // The tool was switched (arguments replaced from outside): show its rows.
  const current = JSON.stringify(props.value) === JSON.stringify(rowsToRecord(rows)) ? rows : recordToRows(props.value);
  const change = (next: KeyValueRow[]) => {
    setRows(next);
    props.onChange(rowsToRecord(next));
  };
  return (
    <Stack spacing={1} role="group" aria-label={t("fields.arguments")}>
      <Typography variant="subtitle2" component="p">
        {t("fields.arguments")}
      </Typography>
      {current.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: "center" }}>
          {ARGUMENT_PARTS.map(({ part, label, dir }) => (
            <TextField
              key={part}
              size="small"
              label={t(label, { n: index + 1 })}
              value={row[part]}
              onChange={(e) => change(patchAt(current, index, { [part]: e.target.value }))}
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { dir } }}
            />
          ))}
          <IconButton
            aria-label={t("fields.argumentRemove", { n: index + 1 })}
            onClick={() => change(removeAt(current, index))}
          >
            <DeleteOutline />
          </IconButton>
        </Stack>
      ))}
      <LineButton
        kind="add"
        label={t("fields.argumentAdd")}
        onClick={() => change([...current, { key: "", value: "" }])}
      />
    </Stack>
  );
}
