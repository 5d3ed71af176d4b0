import type { ChatRequestBody, ModelScript, ScriptedReply } from "./scripted-llm.ts";

/**
 * One scripted model for a test run's three parts: the assistant under test, and the judge of its
 * rubrics. The judge is told apart by its instructions; it passes a rubric that quotes a phrase
 * ("The assistant says "booked"") when the assistant's lines contain it, and says why in a sentence.
 */

/** How the judge's request begins (modules/test-suites/judge.ts). */
const JUDGE_MARK = "judge of a test call";

export const isJudgeRequest = (request: ChatRequestBody) =>
  request.messages.some((m) => m.role === "system" && (m.content ?? "").includes(JUDGE_MARK));

/** The verdict a careful judge gives: the quoted phrase is, or is not, among the assistant's lines. */
function verdict(request: ChatRequestBody): ScriptedReply {
  const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
  const rubric = prompt.match(/Rubric:\n([\s\S]*?)\n\nTranscript:/)?.[1] ?? "";
  const phrase = rubric.match(/"([^"]+)"/)?.[1] ?? "";
  const said = prompt
    .split("\n")
    .filter((line) => line.startsWith("Assistant: "))
    .join(" ")
    .toLowerCase();
  const pass = phrase !== "" && said.includes(phrase.toLowerCase());
  const reason = pass ? `The assistant said "${phrase}".` : `The assistant never said "${phrase}".`;
  // Fenced on failure, bare on success: both forms the runner accepts.
  const json = JSON.stringify({ pass, reason });
  return { text: pass ? json : `\`\`\`json\n${json}\n\`\`\`` };
}

/** Everything the caller said or keyed so far (the recogniser's words, a key's mapping), in order. */
const callerSaid = (request: ChatRequestBody) =>
  request.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content ?? "")
    .join("\n");

/** What the assistant answers; `reply` decides from what the caller has said or keyed so far. */
export function testSuiteModel(reply: (callerSaid: string) => string): ModelScript {
  return (request) => (isJudgeRequest(request) ? verdict(request) : { text: reply(callerSaid(request)) });
}
