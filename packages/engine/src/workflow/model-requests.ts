import type { WorkflowValue, WorkflowValues, WorkflowVariable } from "@parley/contract";
import type { ChatMessage, LlmProvider } from "../providers/types.ts";
import { coerceValue, isSet } from "./values.ts";

/** Conversation lines a judgement reads: the recent turns decide, and the request stays small. */
const RECENT_MESSAGES = 30;
/** A model's reason kept in the path; longer ones are cut. */
const MAX_REASON = 300;

/** One answer of the model as plain text (tool calls ignored), at temperature 0. */
async function completeText(llm: LlmProvider, messages: ChatMessage[], signal: AbortSignal): Promise<string> {
  let text = "";
  for await (const chunk of llm.chat({ messages, temperature: 0, maxTokens: 500, signal })) {
    if (chunk.type === "text") text += chunk.text;
  }
  return text;
}

/** One system and one user message; the JSON object of the answer, or null. */
async function askForJsonObject(
  llm: LlmProvider,
  system: string,
  user: string,
  signal: AbortSignal,
): Promise<Record<string, unknown> | null> {
  const messages: ChatMessage[] = [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
  return parseJsonObject(await completeText(llm, messages, signal));
}

/**
 * The JSON object in a model's answer: models wrap JSON in code fences or a sentence now and
 * then, so the outermost braces are read. Null when there is none.
 */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The caller's and the assistant's lines, oldest first, as a transcript the model reads. */
export function transcriptOf(history: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of history.slice(-RECENT_MESSAGES)) {
    if (message.role === "user") lines.push(`Caller: ${message.content}`);
    else if (message.role === "assistant" && message.content.trim()) lines.push(`Assistant: ${message.content}`);
  }
  return lines.join("\n");
}

function typeHint(variable: WorkflowVariable): string {
  switch (variable.type) {
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "date":
      return "a date written YYYY-MM-DD";
    case "enum":
      return `one of ${(variable.enum_values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "string":
      return "text";
  }
}

/** The known values as lines for a prompt ("(none yet)" when nothing is known). */
export function knownValues(values: WorkflowValues): string {
  const lines = Object.entries(values)
    .filter(([, value]) => isSet(value))
    .map(([name, value]) => `- ${name}: ${JSON.stringify(value)}`);
  return lines.length > 0 ? lines.join("\n") : "(none yet)";
}

export interface ExtractionItem {
  variable: WorkflowVariable;
  /** What to look for (the step's own description of it, else the variable's). */
  description: string;
}

/**
 * Asks the model, in one request, for the values the conversation gives the listed variables and
 * types each answer. Only values the model found (and that read as their type) are returned.
 */
export async function extractValues(
  llm: LlmProvider,
  request: { items: ExtractionItem[]; history: readonly ChatMessage[]; values: WorkflowValues; today: string },
  signal: AbortSignal,
): Promise<Record<string, WorkflowValue>> {
  const { items } = request;
  const fields = items
    .map(({ variable, description }) => `- "${variable.name}" (${typeHint(variable)}): ${description || variable.name}`)
    .join("\n");
  const system = [
    "You read a phone conversation between a caller and an assistant and extract what the caller said.",
    "Answer with one JSON object and nothing else. Its keys are exactly these:",
    fields,
    "Give each key the value the caller stated or clearly confirmed, converted to the type shown, or null when the conversation does not give it. Never guess.",
    `Today is ${request.today}: resolve relative dates ("tomorrow", "next Monday") from it.`,
  ].join("\n");
  const user = `Known so far:\n${knownValues(request.values)}\n\nConversation:\n${transcriptOf(request.history)}`;
  const answer = await askForJsonObject(llm, system, user, signal);
  const found: Record<string, WorkflowValue> = {};
  if (!answer) return found;
  for (const { variable } of items) {
    const value = coerceValue(variable, answer[variable.name]);
    if (isSet(value)) found[variable.name] = value;
  }
  return found;
}

export interface ModelChoice {
  /** Index into the candidates. */
  index: number;
  reason: string;
}

/**
 * Asks the model which of the candidate conditions the conversation meets, in one request; null
 * when it judges none of them true (or answers nothing readable).
 */
export async function chooseCondition(
  llm: LlmProvider,
  request: { conditions: string[]; history: readonly ChatMessage[]; values: WorkflowValues },
  signal: AbortSignal,
): Promise<ModelChoice | null> {
  const { conditions } = request;
  const system = [
    "You route a phone conversation between a caller and an assistant.",
    "Decide which one of the numbered conditions is true of the conversation so far; what the caller said last matters most.",
    'Answer with one JSON object and nothing else: {"choice": <the number of the condition that is true, or 0 when none clearly is>, "reason": "<one short sentence>"}.',
  ].join("\n");
  const numbered = conditions.map((c, i) => `${i + 1}. ${c}`).join("\n");
  const user = `Conditions:\n${numbered}\n\nKnown values:\n${knownValues(request.values)}\n\nConversation:\n${transcriptOf(request.history)}`;
  const answer = await askForJsonObject(llm, system, user, signal);
  const choice = Number(answer?.choice);
  if (!Number.isInteger(choice) || choice < 1 || choice > conditions.length) return null;
  const index = choice - 1;
  const given = typeof answer?.reason === "string" ? answer.reason.trim() : "";
  return { index, reason: (given || (conditions[index] ?? "")).slice(0, MAX_REASON) };
}
