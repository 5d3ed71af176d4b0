import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
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
import type { FieldsProps } from "./node-fields.tsx";
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

function FunctionPicker(props: {
  node: ToolNode;
  onPick: (tool: WorkflowToolRef, args: Record<string, string>) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const functions = useFunctions();
  const tool = props.node.data.tool;
  const selected = tool.kind === "function" ? tool.function_id : "";
  if (functions.error) return <Alert severity="error">{errorText(functions.error, t("fields.functionsFailed"))}</Alert>;
  const list = functions.data ?? [];
  return (
    <TextField
      select
      size="small"
      fullWidth
      required
      label={t("fields.function")}
      value={list.some((f) => f.id === selected) ? selected : ""}
      helperText={!functions.isPending && list.length === 0 ? t("fields.noFunctions") : undefined}
      onChange={(e) => {
        const fn = list.find((f) => f.id === e.target.value);
        if (fn)
          props.onPick(
            { kind: "function", function_id: fn.id },
            argumentsFor(schemaArguments(fn.parameters), props.node.data.arguments),
          );
      }}
    >
      {list.map((fn) => (
        <MenuItem key={fn.id} value={fn.id}>
          {fn.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function McpPicker(props: { node: ToolNode; onPick: (tool: WorkflowToolRef, args: Record<string, string>) => void }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const servers = useMcpServers();
  const tool = props.node.data.tool;
  const serverId = tool.kind === "mcp" ? tool.mcp_server_id : "";
  const toolName = tool.kind === "mcp" ? tool.tool_name : "";
  const list = servers.data ?? [];
  if (servers.error) return <Alert severity="error">{errorText(servers.error, t("fields.serversFailed"))}</Alert>;
  return (
    <>
      <TextField
        select
        size="small"
        fullWidth
        required
        label={t("fields.mcpServer")}
        value={list.some((s) => s.id === serverId) ? serverId : ""}
        helperText={!servers.isPending && list.length === 0 ? t("fields.noServers") : undefined}
        onChange={(e) => props.onPick({ kind: "mcp", mcp_server_id: e.target.value, tool_name: "" }, {})}
      >
        {list.map((server) => (
          <MenuItem key={server.id} value={server.id}>
            {server.name}
          </MenuItem>
        ))}
      </TextField>
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
    <TextField
      select
      size="small"
      fullWidth
      required
      label={t("fields.mcpTool")}
      value={list.some((tool) => tool.name === props.toolName) ? props.toolName : ""}
      helperText={tools.isPending ? t("fields.toolsLoading") : undefined}
      onChange={(e) => {
        const tool = list.find((item) => item.name === e.target.value);
        if (tool) {
          props.onPick(
            { kind: "mcp", mcp_server_id: props.serverId, tool_name: tool.name },
            argumentsFor(schemaArguments(tool.input_schema), props.node.data.arguments),
          );
        }
      }}
    >
      {list.map((tool) => (
        <MenuItem key={tool.name} value={tool.name}>
          {tool.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Argument name → template rows; a row whose name is still empty stays on screen but is not saved. */
function ArgumentRows(props: { value: Record<string, string>; onChange: (value: Record<string, string>) => void }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const [rows, setRows] = useState(() => Object.entries(props.value).map(([key, value]) => ({ key, value })));
  // The tool was switched (arguments replaced from outside): show its rows.
  const saved = JSON.stringify(props.value);
  const shown = JSON.stringify(
    Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value])),
  );
  const current = saved === shown ? rows : Object.entries(props.value).map(([key, value]) => ({ key, value }));
  const change = (next: typeof rows) => {
    setRows(next);
    props.onChange(Object.fromEntries(next.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value])));
  };
  return (
    <Stack spacing={1} role="group" aria-label={t("fields.arguments")}>
      <Typography variant="subtitle2" component="p">
        {t("fields.arguments")}
      </Typography>
      {current.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <TextField
            size="small"
            label={t("fields.argumentName", { n: index + 1 })}
            value={row.key}
            onChange={(e) => change(current.map((r, i) => (i === index ? { ...r, key: e.target.value } : r)))}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { dir: "ltr" } }}
          />
          <TextField
            size="small"
            label={t("fields.argumentValue", { n: index + 1 })}
            value={row.value}
            onChange={(e) => change(current.map((r, i) => (i === index ? { ...r, value: e.target.value } : r)))}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { dir: "auto" } }}
          />
          <IconButton
            aria-label={t("fields.argumentRemove", { n: index + 1 })}
            onClick={() => change(current.filter((_, i) => i !== index))}
          >
            <DeleteOutline />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={() => change([...current, { key: "", value: "" }])}>
          {t("fields.argumentAdd")}
        </Button>
      </div>
    </Stack>
  );
}
