import type { FaultKind } from "@parley/contract";
import { faultKind, faultMessage, type ToolResult } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { type McpSession, openMcpSession, reasonOf, serverTarget } from "../mcp-servers/client.ts";
import { listAgentMcpServers, type McpServerRow } from "../mcp-servers/service.ts";
import { type ToolEntry, toolName } from "./tool-runner.ts";

export interface McpToolSet {
  tools: ToolEntry[];
  /** Servers that could not be reached when the call started (their tools are left out). */
  failures: string[];
  /** Closes the call's connections. */
  close(): Promise<void>;
}

/**
 * The tools of the assistant's MCP servers, over one connection per server kept for the whole
 * call (a tool call mid-conversation must not pay for a handshake). Each tool is named
 * `<server>__<tool>` so two servers' tools, or a server tool and a function, never clash.
 * `pinned` are the servers an assistant version was published with (issue 30), in place of the
 * assistant's live links.
 */
export async function mcpTools(
  ctx: AppContext,
  tenant: TenantScope,
  agentId: string,
  pinned?: McpServerRow[],
): Promise<McpToolSet> {
  const servers = pinned ?? (await listAgentMcpServers(ctx.db, tenant, agentId));
  const opened = await Promise.all(servers.map((server) => openServer(ctx, server)));
  const sessions = opened.flatMap((o) => (o.session ? [o.session] : []));
  return {
    tools: opened.flatMap((o) => o.tools),
    failures: opened.flatMap((o) => (o.failure ? [o.failure] : [])),
    close: async () => {
      await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    },
  };
}

async function openServer(
  ctx: AppContext,
  server: McpServerRow,
): Promise<{ session: McpSession | null; tools: ToolEntry[]; failure?: string }> {
  let session: McpSession | null = null;
  try {
    session = await openMcpSession(ctx, serverTarget(ctx, server));
    const open = session;
    const listed = await open.listTools();
    const prefix = toolName(server.name).toLowerCase();
    const tools: ToolEntry[] = listed.map((tool) => ({
      spec: {
        name: `${prefix}__${tool.name}`,
        description: tool.description || `${tool.name} (from ${server.name})`,
        parameters: tool.input_schema,
      },
      async run(args, { signal }) {
        try {
          const result = await open.callTool(tool.name, args, { signal });
          // The tool's own error (isError) is an answer for the model, not a fault of the server.
          return { ok: !result.isError, content: result.text };
        } catch (error) {
          return mcpFailure(server.name, error);
        }
      },
    }));
    return { session, tools };
  } catch (error) {
    await session?.close().catch(() => undefined);
    return { session: null, tools: [], failure: `MCP server "${server.name}" is unavailable: ${reasonOf(error)}.` };
  }
}

/** How a tool call to a server that went away (or never answered) is recorded: reached or not, in time or not. */
function mcpFaultKind(error: unknown): FaultKind {
  const kind = faultKind(error);
  if (kind === "timeout") return "timeout";
  return kind === "unreachable" || kind === "stream_cut" ? "unreachable" : "failed";
}

/** A failed MCP tool call as the model reads it, with its fault for the call's log. */
function mcpFailure(serverName: string, error: unknown): ToolResult {
  const reason = reasonOf(error);
  const kind = mcpFaultKind(error);
  const content =
    kind === "timeout"
      ? `The MCP server "${serverName}" did not answer in time (${reason}).`
      : `The MCP server "${serverName}" could not run the tool: ${reason}.`;
  return { ok: false, content, fault: { kind, error: faultMessage(error) } };
}
