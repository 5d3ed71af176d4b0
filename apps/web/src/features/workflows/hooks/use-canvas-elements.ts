import { validateWorkflow, type WorkflowCondition, type WorkflowIssue, type WorkflowNodeType } from "@parley/contract";
import { useCallback, useDeferredValue, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useFunctions } from "../../../api/functions.ts";
import type { TestProgress } from "../components/test-panel.tsx";
import type { NodeSize } from "../utils/auto-layout.ts";
import { flowEdges, flowNodes, issuesByElement, type Selection } from "../utils/flow-elements.ts";
import { issueText } from "../utils/issue-text.ts";
import type { WorkflowDraft } from "./use-workflow-draft.ts";

/**
 * What the canvas draws from the draft: the validator's issues (placed on their nodes and edges, in
 * the interface language), the nodes with their cards, and the edges with their conditions.
 */
export function useCanvasElements(
  draft: WorkflowDraft,
  view: { selection: Selection; sizes: ReadonlyMap<string, NodeSize>; progress: TestProgress },
) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const functions = useFunctions();
  const { graph } = draft;
  const { selection, sizes, progress } = view;
  // Validation trails the keystrokes a little on a large graph rather than slowing the typing.
  const checked = useDeferredValue(draft);
  const issues = useMemo(() => validateWorkflow(checked.graph, checked.variables, checked.global_prompt), [checked]);
  const textOf = useCallback((issue: WorkflowIssue) => issueText(t, issue, graph), [t, graph]);
  const marked = useMemo(() => issuesByElement(issues, textOf), [issues, textOf]);

  const labels = useMemo(() => {
    const condition = (c: WorkflowCondition) => {
      switch (c.kind) {
        case "always":
          return t("condition.always");
        case "default":
          return t("condition.otherwise");
        case "model":
          return c.description;
        case "variable":
          return `${c.variable} ${t(`condition.symbols.${c.operator}`)} ${c.value ?? ""}`.trim();
      }
    };
    return { kind: (type: WorkflowNodeType) => t(`kinds.${type}`), condition };
  }, [t]);
  const toolNames = useMemo(() => new Map((functions.data ?? []).map((f) => [f.id, f.name])), [functions.data]);
  const nodes = useMemo(
    () =>
      flowNodes(graph, { labels, issues: marked.nodes, selection, sizes, activeNodeId: progress.nodeId, toolNames }),
    [graph, labels, marked.nodes, selection, sizes, progress.nodeId, toolNames],
  );
  const takenEdgeIds = useMemo(
    () =>
      new Set(
        graph.edges
          .filter((e) => progress.walked.some((w) => w.from === e.source && w.to === e.target))
          .map((e) => e.id),
      ),
    [graph.edges, progress.walked],
  );
  const edges = useMemo(
    () => flowEdges(graph, { labels, issues: marked.edges, selection, takenEdgeIds }),
    [graph, labels, marked.edges, selection, takenEdgeIds],
  );
  return { issues, textOf, marked, nodes, edges };
}
