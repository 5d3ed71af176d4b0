import {
  type AnalysisSettings,
  isAnalysisSchema,
  SuccessEvaluation,
  type TranscriptEntry,
  verdictPassed,
} from "@parley/contract";
import type { ChatMessage } from "@parley/engine";
import { type AnalysedCall, correction, dataMessages, successMessages, summaryMessages } from "./prompts.ts";
import { dataIssues, jsonInAnswer } from "./structured-data.ts";

/** One completion of the assistant's model: the whole answer's text. */
export type Complete = (messages: ChatMessage[]) => Promise<string>;

/** The parts of an analysis; a part the model could not produce is null and named in `problems`. */
export interface AnalysisParts {
  summary: string | null;
  success: SuccessEvaluation | null;
  structured_data: Record<string, unknown> | null;
  problems: string[];
}

/** The model answered twice and neither answer fitted: retrying the job would not help. */
class UnfitAnswer extends Error {}

/**
 * Runs the analyses the settings ask for over a transcript, one completion each (one more when an
 * answer does not fit its format). A failing model (network, vendor) throws, so the job retries;
 * an answer that does not fit twice only fails its own part.
 */
export async function analyseTranscript(
  complete: Complete,
  settings: AnalysisSettings,
  transcript: TranscriptEntry[],
  /** How the call went when a stage failed (the call log's fault outcome), so the verdict can weigh it. */
  outcome: string | null = null,
): Promise<AnalysisParts> {
  const call: AnalysedCall = { transcript, outcome };
  const parts: AnalysisParts = { summary: null, success: null, structured_data: null, problems: [] };
  const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof UnfitAnswer)) throw error;
      parts.problems.push(`${what}: ${error.message}`);
      return null;
    }
  };
  const { summary, success_evaluation: success, structured_data: data } = settings;
  if (summary.enabled) parts.summary = await attempt("Summary", () => summarise(complete, summary.prompt, call));
  if (success.enabled) {
    parts.success = await attempt("Success evaluation", () => evaluate(complete, success.rubric, success.scale, call));
  }
  if (data.enabled) {
    const schema = data.schema;
    if (!isAnalysisSchema(schema)) parts.problems.push("Structured data: the assistant's schema is not valid.");
    else parts.structured_data = await attempt("Structured data", () => extract(complete, schema, data.prompt, call));
  }
  return parts;
}

async function summarise(complete: Complete, prompt: string, call: AnalysedCall): Promise<string> {
  const text = (await complete(summaryMessages(prompt, call))).trim();
  if (!text) throw new UnfitAnswer("the model returned an empty summary");
  return text;
}

/** An answer read: its value, or what is wrong with it (shown to the model once). */
type Reading<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Asks once; on an answer that does not fit, shows the model its problems and asks once more. */
async function withOneCorrection<T>(
  complete: Complete,
  messages: ChatMessage[],
  read: (answer: string) => Reading<T>,
): Promise<T> {
  const first = await complete(messages);
  const firstRead = read(first);
  if (firstRead.ok) return firstRead.value;
  const secondRead = read(await complete(correction(messages, first, firstRead.problems)));
  if (secondRead.ok) return secondRead.value;
  throw new UnfitAnswer(`the model's answer did not fit: ${secondRead.problems.slice(0, 5).join("; ")}`);
}

function evaluate(
  complete: Complete,
  rubric: string,
  scale: SuccessEvaluation["scale"],
  call: AnalysedCall,
): Promise<SuccessEvaluation> {
  return withOneCorrection(complete, successMessages(rubric, scale, call), (answer): Reading<SuccessEvaluation> => {
    const json = jsonInAnswer(answer);
    const raw = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
    // Models often write a 1–10 score as text ("7"); the verdict's meaning is the same.
    const verdict =
      scale === "numeric_1_10" && typeof raw.verdict === "string" && /^\d+$/.test(raw.verdict.trim())
        ? Number(raw.verdict.trim())
        : typeof raw.verdict === "string"
          ? raw.verdict.trim().toLowerCase()
          : raw.verdict;
    const reason = typeof raw.reason === "string" ? raw.reason.trim() : raw.reason;
    const parsed = SuccessEvaluation.safeParse({ scale, verdict, reason, passed: false });
    if (!parsed.success) {
      return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join(".") || "answer"}: ${i.message}`) };
    }
    return { ok: true, value: { ...parsed.data, passed: verdictPassed(parsed.data) } };
  });
}

function extract(
  complete: Complete,
  schema: Parameters<typeof dataMessages>[0],
  prompt: string,
  call: AnalysedCall,
): Promise<Record<string, unknown>> {
  return withOneCorrection(complete, dataMessages(schema, prompt, call), (answer): Reading<Record<string, unknown>> => {
    const json = jsonInAnswer(answer);
    if (json === undefined) return { ok: false, problems: ["the answer is not a JSON object"] };
    const problems = dataIssues(json, schema);
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: json as Record<string, unknown> };
  });
}
