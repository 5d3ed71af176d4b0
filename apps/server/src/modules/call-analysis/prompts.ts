import {
  type AnalysisObjectSchema,
  DESCRIPTIVE_VERDICTS,
  NUMERIC_PASS_SCORE,
  type SuccessScale,
  type TranscriptEntry,
} from "@parley/contract";
import type { ChatMessage } from "@parley/engine";

/**
 * What the assistant's model is asked after a call. Each task is one system message (the task and
 * the user's own instructions) and one user message (the transcript), so the user's prompt never
 * reads as part of the conversation and the conversation never reads as instructions.
 */

const DEFAULT_SUMMARY =
  "Summarize the call in two to four sentences: who called, what they wanted, what was agreed or done, and any follow-up.";
const DEFAULT_RUBRIC = "The call succeeded if the caller's request was understood and resolved or correctly handed on.";

/** The transcript as the model reads it, one line per turn. */
export function transcriptText(transcript: TranscriptEntry[]): string {
  return transcript.map((t) => `${t.role === "assistant" ? "Assistant" : "Caller"}: ${t.text}`).join("\n");
}

/** What an analysis reads of a call: its transcript and, when something failed, how the call ended. */
export interface AnalysedCall {
  transcript: TranscriptEntry[];
  /** A sentence on a fault outcome (the model, transcriber, voice or a tool failed); null when none. */
  outcome: string | null;
}

function task(system: string, call: AnalysedCall): ChatMessage[] {
  const outcome = call.outcome ? `\n\nHow the call went technically: ${call.outcome}` : "";
  return [
    { role: "system", content: system },
    { role: "user", content: `Call transcript:\n\n${transcriptText(call.transcript)}${outcome}` },
  ];
}

export function summaryMessages(prompt: string, call: AnalysedCall): ChatMessage[] {
  return task(
    [
      "You analyse a finished phone call between an AI voice assistant and a caller.",
      prompt.trim() || DEFAULT_SUMMARY,
      "Answer with the summary text only, no heading.",
    ].join("\n\n"),
    call,
  );
}

const SCALE_ANSWERS: Record<SuccessScale, string> = {
  pass_fail: '"verdict" is "pass" if the call met the rubric, otherwise "fail".',
  numeric_1_10: `"verdict" is a whole number from 1 (failed completely) to 10 (met the rubric perfectly); ${NUMERIC_PASS_SCORE} or more means it met the rubric.`,
  descriptive: `"verdict" is one of ${DESCRIPTIVE_VERDICTS.map((v) => `"${v}"`).join(", ")} (best first); "excellent" and "good" mean it met the rubric.`,
};

export function successMessages(rubric: string, scale: SuccessScale, call: AnalysedCall): ChatMessage[] {
  return task(
    [
      "You evaluate whether a finished phone call between an AI voice assistant and a caller was a success.",
      `Rubric:\n${rubric.trim() || DEFAULT_RUBRIC}`,
      `Answer with one JSON object and nothing else: {"verdict": …, "reason": "…"}. ${SCALE_ANSWERS[scale]} "reason" is one or two sentences citing what happened in the call.`,
    ].join("\n\n"),
    call,
  );
}

export function dataMessages(schema: AnalysisObjectSchema, prompt: string, call: AnalysedCall): ChatMessage[] {
  return task(
    [
      "You extract structured data from a finished phone call between an AI voice assistant and a caller.",
      ...(prompt.trim() ? [prompt.trim()] : []),
      `Answer with one JSON object and nothing else, matching this JSON schema:\n${JSON.stringify(schema, null, 2)}`,
      "Use null for an optional property the call did not reveal; never invent values.",
    ].join("\n\n"),
    call,
  );
}

/** The second chance after an answer that did not fit: the answer and its problems go back to the model. */
export function correction(messages: ChatMessage[], answer: string, problems: string[]): ChatMessage[] {
  return [
    ...messages,
    { role: "assistant", content: answer },
    {
      role: "user",
      content: `That answer is not valid:\n- ${problems.join("\n- ")}\n\nAnswer again with the corrected JSON object only.`,
    },
  ];
}
