import type { CallLog } from "@parley/contract";
import { type ChatMessage, faultMessage, type LlmProvider } from "@parley/engine";
import { z } from "zod";
import { providerSetupProblem } from "./caller-providers.ts";

/** One verdict may take this long; a judge that has not answered by then counts as unable to judge. */
export const JUDGE_TIMEOUT_MS = 60_000;
/** A verdict is a sentence; more than this is not the answer asked for. */
const JUDGE_MAX_TOKENS = 400;

/** The judge's verdict on one rubric. */
export interface Verdict {
  pass: boolean;
  reason: string;
}

/** Judges one rubric against the call; throws JudgeError when the judge cannot give a verdict. */
export type Judge = (rubric: string, call: CallLog) => Promise<Verdict>;

/** The judge model could not answer, or answered something that is not a verdict: the result is `error`. */
export class JudgeError extends Error {
  override name = "JudgeError";
}

const JUDGE_INSTRUCTIONS = [
  "You are the judge of a test call between a voice assistant and a simulated caller.",
  "Read the call below and decide whether the assistant met the rubric.",
  'Answer with one JSON object and nothing else: {"pass": true or false, "reason": "one sentence saying why"}.',
].join(" ");

/** The call as the judge reads it: who said what, the tools called and how it ended. */
function callForJudge(call: CallLog): string {
  const lines = call.transcript.map((line) => `${line.role === "assistant" ? "Assistant" : "Caller"}: ${line.text}`);
  const tools = call.tool_calls.map((tool) => `- ${tool.name}(${tool.arguments}) → ${tool.ok ? "ok" : "failed"}`);
  return [
    "Transcript:",
    lines.length > 0 ? lines.join("\n") : "(nothing was said)",
    "",
    "Tool calls:",
    tools.length > 0 ? tools.join("\n") : "(none)",
    "",
    `The call ended as: ${call.end_reason ?? "unknown"}`,
  ].join("\n");
}

/** The chat request of one verdict. */
export function judgeMessages(rubric: string, call: CallLog): ChatMessage[] {
  return [
    { role: "system", content: JUDGE_INSTRUCTIONS },
    { role: "user", content: `Rubric:\n${rubric}\n\n${callForJudge(call)}` },
  ];
}

const VerdictObject = z.object({ pass: z.boolean(), reason: z.string().trim().default("") });

function verdictOf(json: string): Verdict | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = VerdictObject.safeParse(value);
  return parsed.success ? withReason(parsed.data.pass, parsed.data.reason) : null;
}

const withReason = (pass: boolean, reason: string): Verdict => ({
  pass,
  reason: reason || `The judge answered ${pass ? "PASS" : "FAIL"} without a reason.`,
});

/**
 * Reads a judge's answer: the JSON object asked for, the same object inside a ```json fence, or text
 * starting PASS or FAIL followed by the reason (models that ignore the format still answer). Null
 * when the answer is none of these.
 */
export function parseVerdict(answer: string): Verdict | null {
  const text = answer.trim();
  const direct = verdictOf(text);
  if (direct) return direct;
  const fenced = text.match(/```(?:json)?\s*([\s\S]*?)```/i)?.[1];
  if (fenced) {
    const inFence = verdictOf(fenced.trim());
    if (inFence) return inFence;
  }
  const word = text.match(/^\**\s*(PASS|FAIL)(?:ED)?\b\**[\s:.,;\-–—]*([\s\S]*)$/i);
  if (word?.[1]) return withReason(word[1].toUpperCase() === "PASS", (word[2] ?? "").trim());
  return null;
}

/**
 * The rubric judge on `model`: one completion at temperature 0 per rubric, within JUDGE_TIMEOUT_MS.
 * A model that fails, times out or answers no verdict throws JudgeError with the reason.
 */
export function createJudge(model: LlmProvider): Judge {
  return async (rubric, call) => {
    let text = "";
    try {
      const signal = AbortSignal.timeout(JUDGE_TIMEOUT_MS);
      const request = { messages: judgeMessages(rubric, call), temperature: 0, maxTokens: JUDGE_MAX_TOKENS, signal };
      for await (const chunk of model.chat(request)) if (chunk.type === "text") text += chunk.text;
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new JudgeError(
        timedOut
          ? `The judge model (${model.id}) did not answer within ${JUDGE_TIMEOUT_MS / 1000} s.`
          : `The judge model (${model.id}) failed: ${faultMessage(error)}`,
      );
    }
    const verdict = parseVerdict(text);
    if (!verdict) {
      const shown = text.trim().slice(0, 200) || "(an empty answer)";
      throw new JudgeError(`The judge model (${model.id}) answered no pass/fail verdict: ${shown}`);
    }
    return verdict;
  };
}

/**
 * A judge whose model is built on its first rubric, once per run: a run without rubrics never needs
 * the model's key, and one that cannot be built fails each rubric's result with the reason.
 */
export function lazyJudge(build: () => Promise<LlmProvider>): Judge {
  let judge: Promise<Judge> | null = null;
  return async (rubric, call) => {
    judge ??= build().then(createJudge);
    let ready: Judge;
    try {
      ready = await judge;
    } catch (error) {
      throw new JudgeError(`The judge model could not be set up: ${providerSetupProblem(error)}`);
    }
    return ready(rubric, call);
  };
}
