import type { WorkflowGraph, WorkflowIssue } from "@parley/contract";
import type { TFunction } from "i18next";

/** The node fields a missing_field issue names, by the first part of its path ("collect.0.variable" → collect). */
const FIELDS = new Set(["prompt", "tool", "query", "result_variable", "destination", "member", "collect"]);

/**
 * An issue in the interface language. The validator's own sentence is English; the code, the node
 * and the variable it names say the same in every language.
 */
export function issueText(t: TFunction, issue: WorkflowIssue, graph: WorkflowGraph): string {
  const node = issue.node_id ? graph.nodes.find((n) => n.id === issue.node_id) : undefined;
  const name = node ? node.data.name.trim() || t(`kinds.${node.type}`) : "";
  const field = issue.field?.split(".")[0] ?? "";
  const values = { name, variable: issue.variable ?? "", defaultValue: issue.message };
  if (issue.code === "missing_field" && FIELDS.has(field)) return t(`issues.missing.${field}`, values);
  if (issue.code === "missing_variable" && issue.field === "global_prompt")
    return t("issues.globalPromptVariable", values);
  return t(`issues.codes.${issue.code}`, values);
}
