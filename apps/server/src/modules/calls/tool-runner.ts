import type { ToolCall, ToolResult, ToolRunner, ToolSpec } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { functionToolSpec, listAgentFunctions } from "../functions/service.ts";
import { invokeFunctionWebhook } from "../functions/webhook.ts";

/** Tool names the engine keeps for its own tools (end call, transfer, keypad). */
const BUILT_IN_NAMES = new Set(["end_call", "transfer_call", "send_dtmf"]);
/** What model APIs accept as a tool name. */
const MAX_NAME = 64;

export interface ToolEntry {
  spec: ToolSpec;
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
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

/** The assistant's functions as tools: each call goes to the function's webhook. */
export async function functionTools(ctx: AppContext, workspaceId: string, agentId: string): Promise<ToolEntry[]> {
  const rows = await listAgentFunctions(ctx.db, workspaceId, agentId);
  return rows.map((row) => ({
    spec: functionToolSpec(row),
    async run(args, signal) {
      const result = await invokeFunctionWebhook(ctx, row, args, { signal });
      if (result.ok) return { ok: true, content: result.body || "{}" };
      return { ok: false, content: result.body ? `${result.error} ${result.body}` : (result.error ?? "Failed.") };
    },
  }));
}

/** A ToolRunner over a fixed set of tools, resolved once when the call starts. */
export function createToolRunner(entries: ToolEntry[]): ToolRunner {
  const byName = uniqueNames(entries);
  return {
    tools: () => [...byName.values()].map((e) => e.spec),
    async run(call: ToolCall, options: { signal: AbortSignal }): Promise<ToolResult> {
      const entry = byName.get(call.name);
      if (!entry) return { ok: false, content: `There is no tool named "${call.name}".` };
      const args = parseArguments(call.arguments);
      if (!args) return { ok: false, content: "The arguments were not a JSON object." };
      try {
        return await entry.run(args, options.signal);
      } catch (error) {
        return { ok: false, content: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
