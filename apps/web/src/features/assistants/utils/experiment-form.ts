import type { CreateExperimentBody, ExperimentChannel } from "@parley/contract";
import { ApiError } from "../../../lib/api-error.ts";

/** The create-experiment form as typed: percentages are text until sent. */
export interface ExperimentDraft {
  name: string;
  channel: ExperimentChannel;
  variants: { version: number | ""; percent: string }[];
}

/** A problem keyed by where it shows: `name`, `variants` (the rows as a whole) or `variants.<i>.<field>`. */
export type ExperimentProblems = Partial<Record<string, string>>;

/** The keys of the messages the form shows itself (translated by the caller). */
export type ProblemKey = "nameRequired" | "versionRequired" | "percentRange" | "sumTo100" | "versionTwice";

/** Two rows splitting the two newest versions half and half: what most experiments are. */
export function newExperimentDraft(versions: readonly number[]): ExperimentDraft {
  const [newest, previous] = [...versions].sort((a, b) => b - a);
  return {
    name: "",
    channel: "all",
    variants: [
      { version: previous ?? "", percent: "50" },
      { version: newest ?? "", percent: "50" },
    ],
  };
}

export const percentTotal = (draft: ExperimentDraft) =>
  draft.variants.reduce((sum, row) => sum + (Number.parseInt(row.percent, 10) || 0), 0);

/** What the server would refuse, found before sending (the same rules as the contract's schema). */
export function checkExperiment(draft: ExperimentDraft): Partial<Record<string, ProblemKey>> {
  const problems: Partial<Record<string, ProblemKey>> = {};
  if (!draft.name.trim()) problems.name = "nameRequired";
  const seen = new Set<number>();
  draft.variants.forEach((row, i) => {
    if (row.version === "") problems[`variants.${i}.version`] = "versionRequired";
    else if (seen.has(row.version)) problems[`variants.${i}.version`] = "versionTwice";
    else seen.add(row.version);
    const percent = Number(row.percent);
    if (!Number.isInteger(percent) || percent < 1 || percent > 100) problems[`variants.${i}.percent`] = "percentRange";
  });
  if (!Object.keys(problems).some((key) => key.endsWith("percent")) && percentTotal(draft) !== 100) {
    problems.variants = "sumTo100";
  }
  return problems;
}

/** The request body of a draft that passed `checkExperiment`. */
export function toExperimentBody(draft: ExperimentDraft): CreateExperimentBody {
  return {
    name: draft.name.trim(),
    channel: draft.channel,
    variants: draft.variants.map((row) => ({ version: Number(row.version), percent: Number(row.percent) })),
  };
}

/**
 * A 422's field errors placed where the form shows them: a field the form has keeps its place
 * (`variants.1.percent`), anything else about the variants goes under the rows, the rest is general.
 */
export function serverProblems(error: unknown): { problems: ExperimentProblems; general: string | null } {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return { problems: {}, general: null };
  const problems: ExperimentProblems = {};
  const general: string[] = [];
  for (const { field, message } of error.fieldErrors) {
    const known = field === "name" || /^variants\.\d+\.(version|percent)$/.test(field);
    const key = known ? field : field.startsWith("variants") ? "variants" : null;
    if (key) problems[key] = problems[key] ? `${problems[key]} ${message}` : message;
    else general.push(message);
  }
  return { problems, general: general.length > 0 ? general.join(" ") : null };
}

/** Below this p-value the success rates' difference is unlikely to be chance (the server's test, two-sided). */
export const SIGNIFICANCE = 0.05;

/** How a variant's p-value reads in plain words; null for the first variant (the baseline) or too few calls. */
export function evidenceOf(pValue: number | null): "likely" | "notEnough" | null {
  if (pValue === null) return null;
  return pValue < SIGNIFICANCE ? "likely" : "notEnough";
}
