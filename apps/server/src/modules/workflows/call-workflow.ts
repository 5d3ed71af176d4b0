import type { CallWorkflowRecord } from "@parley/contract";
import { type LlmProvider, WorkflowRunner } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { loadPublishedWorkflow } from "./published.ts";
import { workflowEffects } from "./workflow-effects.ts";

/** The workflow one call runs: the engine's runner, and what the server keeps of it. */
export interface CallWorkflow {
  runner: WorkflowRunner;
  /** The path and variables for the call log. */
  record(): CallWorkflowRecord;
  /** Closes what the workflow opened (MCP connections). */
  close(): Promise<void>;
}

/**
 * The runner of the assistant's published workflow for one call, on the call's own model; null
 * when the assistant has none (or it was never published). `seed` holds the call's own values (a
 * campaign contact's columns), which fill the workflow's variables of the same names. `pinned` is
 * the workflow version the call's assistant version was published with (issue 30): a number runs
 * that version, null runs none (the version was published with no published workflow), undefined
 * runs the latest published one (the published assistant version, or one recorded before versions
 * pinned their workflow).
 */
export async function callWorkflow(
  ctx: AppContext,
  tenant: TenantScope,
  assistant: { id: string; workflow_id?: string | null },
  llm: LlmProvider,
  seed: Record<string, string>,
  pinned?: number | null,
): Promise<CallWorkflow | null> {
  if (pinned === null) return null;
  const published = await loadPublishedWorkflow(ctx.db, tenant, assistant, pinned);
  if (!published) return null;
  const effects = workflowEffects(ctx, tenant, assistant.id);
  const runner = new WorkflowRunner(
    {
      workflowId: published.workflow_id,
      version: published.version,
      globalPrompt: published.global_prompt,
      variables: published.variables,
      graph: published.graph,
    },
    { llm, effects, seed },
  );
  return { runner, record: () => runner.record(), close: () => effects.close() };
}
