import type { Workflow, WorkflowGraph, WorkflowVariable } from "@parley/contract";
import { useCallback, useMemo, useReducer } from "react";
import { type History, type HistoryAction, historyReducer, startHistory } from "../utils/draft-history.ts";

/** What the builder edits and saves: everything of a workflow but its identity and bookkeeping. */
export interface WorkflowDraft {
  name: string;
  description: string;
  global_prompt: string;
  variables: WorkflowVariable[];
  graph: WorkflowGraph;
}

export const draftOf = (workflow: Workflow): WorkflowDraft => ({
  name: workflow.name,
  description: workflow.description,
  global_prompt: workflow.global_prompt,
  variables: workflow.variables,
  graph: workflow.graph,
});

const sameDraft = (a: WorkflowDraft, b: WorkflowDraft) => a === b || JSON.stringify(a) === JSON.stringify(b);

type DraftReducer = (state: History<WorkflowDraft>, action: HistoryAction<WorkflowDraft>) => History<WorkflowDraft>;

/**
 * The draft being edited with its undo history, against the draft last saved (`saved`): `dirty`
 * says whether there is anything to save.
 */
export function useWorkflowDraft(saved: WorkflowDraft) {
  const [history, dispatch] = useReducer<History<WorkflowDraft>, WorkflowDraft, [HistoryAction<WorkflowDraft>]>(
    historyReducer as DraftReducer,
    saved,
    startHistory,
  );
  const draft = history.present;
  const dirty = useMemo(() => !sameDraft(draft, saved), [draft, saved]);
  /** Records an edit; edits of the same `group` (one field's keystrokes, one drag) undo together. */
  const edit = useCallback(
    (change: (draft: WorkflowDraft) => WorkflowDraft, group?: string) => dispatch({ type: "apply", change, group }),
    [],
  );
  return {
    draft,
    dirty,
    edit,
    undo: useCallback(() => dispatch({ type: "undo" }), []),
    redo: useCallback(() => dispatch({ type: "redo" }), []),
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    rebase: useCallback((present: WorkflowDraft) => dispatch({ type: "rebase", present }), []),
  };
}
