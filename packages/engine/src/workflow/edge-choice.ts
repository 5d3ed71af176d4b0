import type { WorkflowEdge, WorkflowNode, WorkflowValues, WorkflowVariable } from "@parley/contract";
import type { ChatMessage, LlmProvider } from "../providers/types.ts";
import { describeVariableCondition, variableConditionHolds } from "./conditions.ts";
import { chooseCondition } from "./model-requests.ts";

export interface EdgeChoiceContext {
  llm: LlmProvider;
  history: readonly ChatMessage[];
  values: WorkflowValues;
  declared: ReadonlyMap<string, WorkflowVariable>;
  signal: AbortSignal;
  onError?(message: string): void;
}

/** The edge to follow and why, in the words the path keeps. */
export interface EdgeChoice {
  edge: WorkflowEdge;
  reason: string;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const labelled = (edge: WorkflowEdge, why: string) => (edge.label?.trim() ? `${edge.label.trim()}: ${why}` : why);

/**
 * The edge to follow out of `node` (`out` are its edges in the graph's order): an unconditional
 * one, else the first variable condition that holds (checked here, no request), else the model's
 * pick among the "model" conditions (one request for all of them), else the default; null: stay.
 * A model that fails is reported and counts as judging none true.
 */
export async function chooseEdge(
  node: WorkflowNode,
  out: readonly WorkflowEdge[],
  ctx: EdgeChoiceContext,
): Promise<EdgeChoice | null> {
  const always = out.find((e) => e.condition.kind === "always");
  if (always) return { edge: always, reason: labelled(always, `"${node.data.name || node.type}" done`) };
  for (const edge of out) {
    const c = edge.condition;
    if (c.kind === "variable" && variableConditionHolds(c, ctx.values, ctx.declared)) {
      return { edge, reason: labelled(edge, describeVariableCondition(c)) };
    }
  }
  const judged = out.flatMap((edge) =>
    edge.condition.kind === "model" ? [{ edge, what: edge.condition.description }] : [],
  );
  if (judged.length > 0) {
    try {
      const choice = await chooseCondition(
        ctx.llm,
        { conditions: judged.map((j) => j.what), history: ctx.history, values: ctx.values },
        ctx.signal,
      );
      const picked = choice ? judged[choice.index] : undefined;
      if (choice && picked) return { edge: picked.edge, reason: choice.reason };
    } catch (error) {
      if (!ctx.signal.aborted) ctx.onError?.(`Workflow condition check failed: ${describe(error)}`);
    }
  }
  const fallback = out.find((e) => e.condition.kind === "default");
  return fallback ? { edge: fallback, reason: labelled(fallback, "no other condition matched") } : null;
}
