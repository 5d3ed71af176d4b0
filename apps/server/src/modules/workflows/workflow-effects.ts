import type { WorkflowToolRef } from "@parley/contract";
import type { WorkflowEffects, WorkflowToolOutcome } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findCallRun } from "../assistants/call-assistant.ts";
import { requireFunction } from "../functions/service.ts";
import { invokeFunctionWebhook } from "../functions/webhook.ts";
import { searchDocuments } from "../knowledge-base/search.ts";
import { agentHasDocuments } from "../knowledge-base/service.ts";
import { type McpSession, openMcpSession, reasonOf, serverTarget } from "../mcp-servers/client.ts";
import { requireMcpServer } from "../mcp-servers/service.ts";

/** Chunks a knowledge node's search keeps: the same as the model's own knowledge tool. */
const KNOWLEDGE_RESULTS = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CallWorkflowEffects extends WorkflowEffects {
  /** Closes the MCP connections the workflow opened. */
  close(): Promise<void>;
}

type JsonSchema = { properties?: Record<string, { type?: unknown }> };

/**
 * Template arguments are text; a function or tool that declares a number, integer or boolean
 * parameter gets one (an argument that does not read as its type is sent as written).
 */
export function typedArguments(args: Record<string, string>, schema: unknown): Record<string, unknown> {
  const properties = (schema as JsonSchema | null)?.properties ?? {};
  return Object.fromEntries(
    Object.entries(args).map(([name, text]) => {
      const type = properties[name]?.type;
      if ((type === "number" || type === "integer") && text.trim() !== "" && Number.isFinite(Number(text))) {
        return [name, Number(text)];
      }
      if (type === "boolean" && (text === "true" || text === "false")) return [name, text === "true"];
      return [name, text];
    }),
  );
}

const failure = (name: string, content: string): WorkflowToolOutcome => ({ name, ok: false, content });

/**
 * Whose workflow runs: a workspace, and during a call the call's room, which names the call (the call
 * path hands its room in as the tenant). A text test in the editor has no call.
 */
export type EffectsScope = TenantScope & { callId?: string };

/**
 * The documents a knowledge step reads: for a call of an assistant version other than the published
 * one (an experiment's variant, a test run's version), those that version recorded (issue 30), as
 * its `search_knowledge` does; undefined runs the live links (the published version, a version
 * recorded before documents were, a text test).
 */
async function versionDocuments(
  ctx: AppContext,
  scope: EffectsScope,
  agentId: string | null,
): Promise<readonly string[] | undefined> {
  if (!scope.callId || !agentId) return undefined;
  const run = await findCallRun(ctx.db, scope, agentId, scope.callId);
  return run?.links.document_ids;
}

/**
 * What a workflow reaches during a call or a text test: the workspace's functions (by id, through
 * their webhooks), tools of its MCP servers (one connection per server, opened on first use and
 * kept until `close`), and knowledge search over the assistant's documents (or the workspace's
 * when none are linked to it); a call of another version than the published one searches the
 * documents that version recorded (or the workspace's when it recorded none, as it searched then).
 */
export function workflowEffects(ctx: AppContext, tenant: EffectsScope, agentId: string | null): CallWorkflowEffects {
  const sessions = new Map<string, Promise<McpSession>>();
  // Read on the first knowledge step and kept: a call's version never changes.
  let pinned: Promise<readonly string[] | undefined> | undefined;

  /**
   * A version's recorded documents, when it recorded any; else the assistant's linked documents,
   * when it has any; else the whole workspace (an assistant without documents, or a version
   * published without any, which searched the workspace then).
   */
  async function searchScope(documentIds: readonly string[] | undefined) {
    if (documentIds) return documentIds.length > 0 ? { pinned: { documentIds } } : {};
    const linked = agentId ? await agentHasDocuments(ctx.db, tenant, agentId) : false;
    return linked && agentId ? { agentId } : {};
  }

  const mcpSession = (serverId: string) => {
    let session = sessions.get(serverId);
    if (!session) {
      session = requireMcpServer(ctx.db, tenant, serverId).then((row) => openMcpSession(ctx, serverTarget(ctx, row)));
      // A failed connection is not kept: the next tool node tries again.
      session.catch(() => sessions.delete(serverId));
      sessions.set(serverId, session);
    }
    return session;
  };

  async function runFunction(functionId: string, args: Record<string, string>, signal: AbortSignal) {
    if (!UUID.test(functionId)) return failure("function", "The function of this step no longer exists.");
    const row = await requireFunction(ctx.db, tenant, functionId).catch(() => null);
    if (!row) return failure("function", "The function of this step no longer exists.");
    const result = await invokeFunctionWebhook(ctx, row, typedArguments(args, row.parameters), { signal });
    if (result.ok) return { name: row.name, ok: true, content: result.body || "{}" };
    return failure(row.name, result.body ? `${result.error} ${result.body}` : (result.error ?? "Failed."));
  }

  async function runMcp(serverId: string, toolName: string, args: Record<string, string>, signal: AbortSignal) {
    if (!UUID.test(serverId)) return failure(toolName, "The MCP server of this step no longer exists.");
    let session: McpSession;
    try {
      session = await mcpSession(serverId);
    } catch (error) {
      return failure(toolName, `The MCP server is unavailable: ${reasonOf(error)}.`);
    }
    const tool = (await session.listTools().catch(() => [])).find((t) => t.name === toolName);
    const result = await session.callTool(toolName, typedArguments(args, tool?.input_schema), { signal });
    return { name: toolName, ok: !result.isError, content: result.text };
  }

  return {
    runTool(tool: WorkflowToolRef, args: Record<string, string>, signal: AbortSignal) {
      return tool.kind === "function"
        ? runFunction(tool.function_id, args, signal)
        : runMcp(tool.mcp_server_id, tool.tool_name, args, signal);
    },
    async searchKnowledge(query: string) {
      const name = "search_knowledge";
      if (!query) return failure(name, "The search query was empty.");
      pinned ??= versionDocuments(ctx, tenant, agentId);
      const scope = await searchScope(await pinned);
      const found = await searchDocuments(
        ctx,
        tenant,
        { q: query, limit: KNOWLEDGE_RESULTS, ...(scope.agentId ? { agent_id: scope.agentId } : {}) },
        { warn: () => undefined },
        scope.pinned,
      );
      // The passages as text: what a result variable holds and a {{template}} reads. None found is a
      // failure, so the variable stays unset and an `is_not_set` edge can route around it.
      if (found.results.length === 0) return failure(name, `Nothing found for "${query}".`);
      return { name, ok: true, content: found.results.map((r) => r.text.trim()).join("\n\n") };
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.then((session) => session.close()).catch(() => undefined)));
    },
  };
}
