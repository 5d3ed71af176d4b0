import { CreateMcpServerBody, MCP_SERVER_DEFAULT_TIMEOUT_SECONDS, type McpServer } from "@parley/contract";
import type { z } from "zod";
import { KeyValueRowList, recordToRows, rowsToRecord } from "../../../components/key-value-rows.tsx";
import { numberField } from "../../../components/number-field.ts";

/**
 * The contract's rules, with headers kept as editable rows and the timeout as typed text. Header
 * values come back masked; sent back unchanged they keep the stored value (contract: UpdateMcpServerBody).
 */
export const McpServerForm = CreateMcpServerBody.extend({
  description: CreateMcpServerBody.shape.description.unwrap(),
  timeout: numberField(CreateMcpServerBody.shape.timeout.unwrap()),
  transport: CreateMcpServerBody.shape.transport.unwrap(),
  headers: KeyValueRowList,
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

export const toBody = (values: McpServerFormOutput): CreateMcpServerBody => ({
  ...values,
  headers: rowsToRecord(values.headers),
});
