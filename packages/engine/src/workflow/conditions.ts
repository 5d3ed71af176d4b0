import type { WorkflowCondition, WorkflowOperator, WorkflowValues, WorkflowVariable } from "@parley/contract";
import { isSet } from "./values.ts";

type VariableCondition = Extract<WorkflowCondition, { kind: "variable" }>;

const SYMBOLS: Record<WorkflowOperator, string> = {
  eq: "=",
  neq: "≠",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  contains: "contains",
  is_set: "is set",
  is_not_set: "is not set",
};

/** A variable condition as a person reads it: `plan = "premium"`, `email is set`. */
export function describeVariableCondition(condition: VariableCondition): string {
  const symbol = SYMBOLS[condition.operator];
  if (condition.operator === "is_set" || condition.operator === "is_not_set") return `${condition.variable} ${symbol}`;
  return `${condition.variable} ${symbol} "${condition.value ?? ""}"`;
}

/** -1, 0 or 1; null when the two do not compare (a number against text that is no number). */
function compare(type: WorkflowVariable["type"], current: unknown, expected: string): number | null {
  if (type === "number") {
    const [a, b] = [Number(current), Number(expected.trim())];
    if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
    return Math.sign(a - b);
  }
  // Dates are YYYY-MM-DD, so their text sorts as they do; the rest compares without case.
  const a = type === "date" ? String(current) : String(current).trim().toLowerCase();
  const b = type === "date" ? expected.trim() : expected.trim().toLowerCase();
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Whether a variable condition holds for the values so far. A variable without a value matches
 * only `is_not_set`: "not collected yet" is neither equal nor unequal to anything.
 */
export function variableConditionHolds(
  condition: VariableCondition,
  values: WorkflowValues,
  declared: ReadonlyMap<string, WorkflowVariable>,
): boolean {
  const current = values[condition.variable];
  if (condition.operator === "is_set") return isSet(current);
  if (condition.operator === "is_not_set") return !isSet(current);
  if (!isSet(current)) return false;
  const type = declared.get(condition.variable)?.type ?? (typeof current === "number" ? "number" : "string");
  const expected = condition.value ?? "";
  if (condition.operator === "contains") {
    return String(current).toLowerCase().includes(expected.trim().toLowerCase());
  }
  const order = compare(type, current, expected);
  if (order === null) return condition.operator === "neq";
  switch (condition.operator) {
    case "eq":
      return order === 0;
    case "neq":
      return order !== 0;
    case "gt":
      return order > 0;
    case "gte":
      return order >= 0;
    case "lt":
      return order < 0;
    case "lte":
      return order <= 0;
  }
}
