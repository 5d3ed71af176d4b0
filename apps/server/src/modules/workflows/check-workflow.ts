import { validateWorkflow, type WorkflowGraph, type WorkflowIssue, type WorkflowVariable } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireFunction } from "../functions/service.ts";
import { requireMcpServer } from "../mcp-servers/service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a lookup of the workspace's row found it (another workspace's row is not found either). */
async function exists(id: string, lookup: (id: string) => Promise<unknown>): Promise<boolean> {
  if (!UUID.test(id)) return false;
  try {
    await lookup(id);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return false;
    throw error;
  }
}

/**
 * The tool nodes whose function or MCP server is not the workspace's (deleted since, or an id from
 * elsewhere): the pure validator cannot know the workspace's tools, the server can.
 */
async function unknownTools(db: Executor, tenant: TenantScope, graph: WorkflowGraph): Promise<WorkflowIssue[]> {
  const functionIds = new Set<string>();
  const serverIds = new Set<string>();
  for (const node of graph.nodes) {
    if (node.type !== "tool") continue;
    const { tool } = node.data;
    if (tool.kind === "function" && tool.function_id) functionIds.add(tool.function_id);
    if (tool.kind === "mcp" && tool.mcp_server_id) serverIds.add(tool.mcp_server_id);
  }
  const known = new Set<string>();
  for (const id of functionIds) if (await exists(id, (fid) => requireFunction(db, tenant, fid))) known.add(id);
  for (const id of serverIds) if (await exists(id, (sid) => requireMcpServer(db, tenant, sid))) known.add(id);
  const issues: WorkflowIssue[] = [];
  for (const node of graph.nodes) {
    if (node.type !== "tool") continue;
    const { tool } = node.data;
    const id = tool.kind === "function" ? tool.function_id : tool.mcp_server_id;
    if (!id || known.has(id)) continue;
    const name = node.data.name.trim() || "tool";
    issues.push({
      code: "unknown_tool",
      node_id: node.id,
      field: "tool",
      message:
        tool.kind === "function"
          ? `"${name}" calls a function this workspace does not have.`
          : `"${name}" uses an MCP server this workspace does not have.`,
    });
  }
  return issues;
}

/** Everything that keeps a workflow from running: the shared validator's issues, then the server's. */
export async function checkWorkflow(
  db: Executor,
  tenant: TenantScope,
  content: { graph: WorkflowGraph; variables: WorkflowVariable[]; globalPrompt: string },
): Promise<WorkflowIssue[]> {
  return [
    ...validateWorkflow(content.graph, content.variables, content.globalPrompt),
    ...(await unknownTools(db, tenant, content.graph)),
  ];
}
