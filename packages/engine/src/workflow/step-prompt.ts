import {
  renderWorkflowTemplate,
  type WorkflowNode,
  type WorkflowValues,
  type WorkflowVariable,
} from "@parley/contract";
import { knownValues } from "./model-requests.ts";
import { isSet } from "./values.ts";

/** A tool or knowledge result shown to the model in the steps that follow. */
export interface StepNote {
  node: string;
  content: string;
}

export interface StepPromptParts {
  /** The assistant's own prompt and the call's context. */
  base: string;
  globalPrompt: string;
  /** The talking step the model answers in (start or conversation); null before the workflow starts. */
  step: WorkflowNode | null;
  values: WorkflowValues;
  /** Values for templates: the declared variables and the call's own (a campaign contact's columns). */
  templateValues: WorkflowValues;
  declared: ReadonlyMap<string, WorkflowVariable>;
  notes: readonly StepNote[];
}

function collectSection(step: WorkflowNode, parts: StepPromptParts): string | null {
  if (step.type !== "conversation") return null;
  const missing = step.data.collect.filter((c) => parts.declared.has(c.variable) && !isSet(parts.values[c.variable]));
  if (missing.length === 0) return null;
  const lines = missing.map((c) => {
    const description = c.description || parts.declared.get(c.variable)?.description || c.variable;
    return `- ${c.variable}: ${description}${c.required ? " (required)" : " (if the caller offers it)"}`;
  });
  return `Find out from the caller, one thing at a time:\n${lines.join("\n")}`;
}

/**
 * The system prompt of the step the model answers in: the assistant's prompt, the workflow's
 * global prompt, the step's own prompt, what the step still has to find out and what is known,
 * with {{variables}} filled in (an unknown one reads as "unknown", never as braces).
 */
export function stepPrompt(parts: StepPromptParts): string {
  const fill = (text: string) =>
    renderWorkflowTemplate(text, { ...parts.templateValues }, "keep").replace(
      /\{\{\s*[A-Za-z0-9_]+\s*\}\}/g,
      "unknown",
    );
  const sections = [parts.base.trim(), fill(parts.globalPrompt).trim()];
  const step = parts.step;
  if (step && (step.type === "start" || step.type === "conversation")) {
    const prompt = fill(step.data.prompt).trim();
    sections.push(`Current step: ${step.data.name || step.type}${prompt ? `\n${prompt}` : ""}`);
    sections.push(collectSection(step, parts) ?? "");
  }
  if (Object.values(parts.values).some(isSet)) sections.push(`Known about this call:\n${knownValues(parts.values)}`);
  if (parts.notes.length > 0) {
    sections.push(
      `Results looked up during the call:\n${parts.notes.map((n) => `- ${n.node}: ${n.content}`).join("\n")}`,
    );
  }
  return sections.filter((s) => s.length > 0).join("\n\n");
}
