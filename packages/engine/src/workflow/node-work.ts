import { renderWorkflowTemplate, type WorkflowNodeOf, type WorkflowValues } from "@parley/contract";
import type { WorkflowEffects, WorkflowObserver, WorkflowToolOutcome } from "./types.ts";

/** Characters of one result kept in a variable or shown to the model. */
const MAX_RESULT_CHARS = 4000;

export interface NodeWorkContext {
  effects: WorkflowEffects;
  /** Values for the node's templates. */
  values: WorkflowValues;
  signal: AbortSignal;
  atMs(): number;
  observer?: WorkflowObserver;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs a tool node (its function or MCP tool, arguments filled from the templates) or a knowledge
 * node (its query filled in) and reports it as a step run. Never throws: a failure is an outcome
 * that is not ok, its message as the content.
 */
export async function runNodeWork(
  node: WorkflowNodeOf<"tool"> | WorkflowNodeOf<"knowledge">,
  ctx: NodeWorkContext,
): Promise<WorkflowToolOutcome> {
  const started = ctx.atMs();
  const fill = (template: string) => renderWorkflowTemplate(template, ctx.values).trim();
  const args =
    node.type === "tool"
      ? Object.fromEntries(Object.entries(node.data.arguments).map(([name, template]) => [name, fill(template)]))
      : { query: fill(node.data.query) };
  let outcome: WorkflowToolOutcome;
  try {
    outcome =
      node.type === "tool"
        ? await ctx.effects.runTool(node.data.tool, args, ctx.signal)
        : await ctx.effects.searchKnowledge(args.query ?? "", ctx.signal);
  } catch (error) {
    outcome = { name: node.data.name || node.type, ok: false, content: describe(error) };
  }
  const content = outcome.content.slice(0, MAX_RESULT_CHARS);
  ctx.observer?.onStepRun?.({
    name: outcome.name,
    arguments: JSON.stringify(args),
    result: content,
    ok: outcome.ok,
    durationMs: Math.max(0, ctx.atMs() - started),
  });
  return { ...outcome, content };
}
