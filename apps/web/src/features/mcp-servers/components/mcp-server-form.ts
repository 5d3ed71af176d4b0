import { MCP_SERVER_DEFAULT_TIMEOUT_SECONDS } from "@parley/contract";
import { z } from "zod";
import { recordToRows, rowsToRecord } from "../../../components/key-value-rows.tsx";
import { numberField } from "../../../components/number-field.ts";
import { type McpServer, McpServerBody } from "../api/mcp-types.ts";

/** The contract's rules, with headers kept as editable rows and the timeout as typed text. */
export const McpServerForm = McpServerBody.extend({
  description: z.string(),
  timeout: numberField(McpServerBody.shape.timeout),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type McpServerFormInput = z.input<typeof McpServerForm>;
export type McpServerFormOutput = z.output<typeof McpServerForm>;

export function formDefaults(server: McpServer | null): McpServerFormInput {
  return {
    name: server?.name ?? "",
    description: server?.description ?? "",
    url: server?.url ?? "",
    timeout: server?.timeout ?? MCP_SERVER_DEFAULT_TIMEOUT_SECONDS,
    transport: server?.transport ?? "auto",
    headers: recordToRows(server?.headers),
  };
}

export const toBody = (values: McpServerFormOutput): McpServerBody => ({
  ...values,
  description: values.description.trim() || null,
  headers: rowsToRecord(values.headers),
});
