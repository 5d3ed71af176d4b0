import type { FaultKind } from "@parley/contract";
import type { ToolCall, ToolResult, ToolRunner, ToolSpec } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { type FunctionRow, functionToolSpec, listAgentFunctions } from "../functions/service.ts";
import { invokeFunctionWebhook, type WebhookResult } from "../functions/webhook.ts";
import { searchDocuments } from "../knowledge-base/search.ts";
import { agentHasDocuments } from "../knowledge-base/service.ts";

/** Tool names the engine keeps for its own tools (end call, transfer, keypad). */
const BUILT_IN_NAMES = new Set(["end_call", "transfer_call", "send_dtmf"]);
/** What model APIs accept as a tool name. */
const MAX_NAME = 64;

/** What one run of a tool gets besides its arguments. */
export interface ToolRunOptions {
  /** Aborts at barge-in or the call's tool timeout. */
  signal: AbortSignal;
  /** The same for every attempt of one tool call (sent to webhooks as Idempotency-Key). */
  idempotencyKey: string;
}

export interface ToolEntry {
  spec: ToolSpec;
  run(args: Record<string, unknown>, options: ToolRunOptions): Promise<ToolResult>;
}

/** A model-safe name: letters, digits, `_` and `-`, at most 64 characters. */
export function toolName(raw: string): string {
  const cleaned = raw.replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return (cleaned || "tool").slice(0, MAX_NAME);
}

/** Gives each entry a unique name (a clash gets `_2`, `_3`, …) and drops the engine's own names. */
export function uniqueNames(entries: ToolEntry[]): Map<string, ToolEntry> {
  const byName = new Map<string, ToolEntry>();
  for (const entry of entries) {
    const base = toolName(entry.spec.name);
    let name = base;
    for (let n = 2; byName.has(name) || BUILT_IN_NAMES.has(name); n += 1) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    byName.set(name, { ...entry, spec: { ...entry.spec, name } });
  }
  return byName;
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.trim() || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const KNOWLEDGE_TOOL = "search_knowledge";
/** Chunks a search hands the model: enough to answer from, few enough to keep the turn fast. */
const KNOWLEDGE_RESULTS = 4;

interface ToolLog {
  warn(obj: object, msg: string): void;
}

/**
 * Knowledge search over the assistant's linked documents, offered only when it has some. The
 * result names each chunk's document, so the call log's tool call records the query, the chunks
 * returned and where they came from.
 */
export async function knowledgeTools(
  ctx: AppContext,
  tenant: TenantScope,
  agentId: string,
  log: ToolLog,
  documentIds?: readonly string[],
): Promise<ToolEntry[]> {
  // A version's recorded documents (issue 30) in place of the live links; those deleted since find nothing.
  const pinned = documentIds ? { documentIds } : undefined;
  if (!(pinned ? pinned.documentIds.length > 0 : await agentHasDocuments(ctx.db, tenant, agentId))) return [];
  return [
    {
      spec: {
        name: KNOWLEDGE_TOOL,
        description:
          "Search the knowledge documents (policies, prices, hours, FAQs) for facts to answer the caller. Call it before answering a question the conversation has not settled.",
        parameters: {
          type: "object",
          properties: { query: { type: "string", description: "What to look up, as a short question or keywords" } },
          required: ["query"],
        },
      },
      async run(args) {
        const query = typeof args.query === "string" ? args.query.trim() : "";
        if (!query) return { ok: false, content: "Give a query to search for." };
        const found = await searchDocuments(
          ctx,
          tenant,
          { q: query, agent_id: agentId, limit: KNOWLEDGE_RESULTS },
          log,
          pinned,
        );
        const results = found.results.map((r) => ({
          document_id: r.document_id,
          document: r.document_name,
          heading: r.heading,
          text: r.text,
        }));
        return { ok: true, content: JSON.stringify({ query, results }) };
      },
    },
  ];
}

/** A call has no request logger here; a failed query embedding falls back to keywords either way. */
const silent: ToolLog = { warn: () => undefined };

/**
 * What a call of an assistant version offers in place of the assistant's live links (issue 30,
 * calls/version-tools.ts); a kind left out is read live.
 */
export interface PinnedTools {
  /** The functions the version was published with (those still there). */
  functions?: FunctionRow[];
  /** The documents the version was published with: knowledge search reads only these (none: no search). */
  documentIds?: string[];
}

/**
 * The assistant's own tools: its functions (each call goes to the function's webhook) and, when
 * documents are linked to it, knowledge search.
 */
export async function functionTools(
  ctx: AppContext,
  tenant: TenantScope,
  agentId: string,
  pinned: PinnedTools = {},
): Promise<ToolEntry[]> {
  const [rows, knowledge] = await Promise.all([
    pinned.functions ?? listAgentFunctions(ctx.db, tenant, agentId),
    knowledgeTools(ctx, tenant, agentId, silent, pinned.documentIds),
  ]);
  const functions: ToolEntry[] = rows.map((row) => ({
    spec: functionToolSpec(row),
    async run(args, { signal, idempotencyKey }) {
      // A live call retries a failure that may pass once, under the same key, within its tool budget.
      const result = await invokeFunctionWebhook(ctx, row, args, { signal, idempotencyKey, retry: true });
      return functionResult(result);
    },
  }));
  return [...functions, ...knowledge];
}

/** Why a webhook failed, in the words of the call's fault log. */
export function webhookFaultKind(result: Pick<WebhookResult, "status" | "timedOut">): FaultKind {
  if (result.status === 0) return result.timedOut ? "timeout" : "unreachable";
  if (result.status === 429) return "rate_limited";
  if (result.status >= 500) return "server_error";
  return "rejected";
}

/** A webhook's answer as the model reads it, with the fault for the call's log when it failed. */
export function functionResult(result: WebhookResult): ToolResult {
  if (result.ok) return { ok: true, content: result.body || "{}" };
  const error = result.error ?? `The function failed (HTTP ${result.status}).`;
  return {
    ok: false,
    content: result.body ? `${error} ${result.body}` : error,
    fault: { kind: webhookFaultKind(result), error },
  };
}

/** A ToolRunner over a fixed set of tools, resolved once when the call starts. */
export function createToolRunner(entries: ToolEntry[]): ToolRunner {
  const byName = uniqueNames(entries);
  return {
    tools: () => [...byName.values()].map((e) => e.spec),
    async run(call: ToolCall, options: { signal: AbortSignal; idempotencyKey: string }): Promise<ToolResult> {
      const entry = byName.get(call.name);
      if (!entry) return { ok: false, content: `There is no tool named "${call.name}".` };
      const args = parseArguments(call.arguments);
      if (!args) return { ok: false, content: "The arguments were not a JSON object." };
      try {
        return await entry.run(args, options);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, content: message, fault: { kind: "failed", error: message } };
      }
    },
  };
}
