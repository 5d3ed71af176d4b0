import type { WorkflowGraph, WorkflowToolRef, WorkflowVariable } from "@parley/contract";

/** The workflow a call (or a text test) runs: a published version, or the draft under test. */
export interface WorkflowDefinition {
  workflowId: string;
  /** The published version's number (0 for a draft under test). */
  version: number;
  globalPrompt: string;
  variables: WorkflowVariable[];
  graph: WorkflowGraph;
}

/** What a tool or knowledge node's work came to; `name` is what the call log lists it as. */
export interface WorkflowToolOutcome {
  name: string;
  ok: boolean;
  /** The result as text (JSON or plain), what a result variable receives. */
  content: string;
}

/** The outside world a workflow reaches: the server runs functions, MCP tools and knowledge search. */
export interface WorkflowEffects {
  /** Calls a tool node's function or MCP tool with its arguments filled in. */
  runTool(tool: WorkflowToolRef, args: Record<string, string>, signal: AbortSignal): Promise<WorkflowToolOutcome>;
  /** Searches the assistant's knowledge documents. */
  searchKnowledge(query: string, signal: AbortSignal): Promise<WorkflowToolOutcome>;
}

/** A tool or knowledge node that ran, for the call's tool-call log. */
export interface WorkflowStepRun {
  name: string;
  /** JSON text of the arguments sent. */
  arguments: string;
  result: string;
  ok: boolean;
  durationMs: number;
}

/** How the workflow finishes once it reaches a transfer or end node; the session acts on it. */
export type WorkflowFinish =
  | { type: "end"; nodeName: string; message: string }
  | { type: "transfer"; nodeName: string; destination: string; message: string };

/** A hand-off node reached (issue 31): the call passes to another squad member. */
export interface WorkflowHandoff {
  nodeName: string;
  member: string;
  /** Said before the hand-off; empty: the squad's bridge line. */
  message: string;
}

/** What one caller turn did to the workflow. */
export interface WorkflowTurn {
  transitions: { from: string; to: string; reason: string }[];
  /** Set when this turn reached a transfer or end node. */
  finish: WorkflowFinish | null;
  /** Set when this turn reached a hand-off node; the workflow is then finished too. */
  handoff?: WorkflowHandoff | null;
}

/** What a turn reports as it runs (the session turns these into call events). */
export interface WorkflowObserver {
  onStepRun?(run: WorkflowStepRun): void;
  /** A judgement or tool that failed; the workflow carries on as if it found nothing. */
  onError?(message: string): void;
}
