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

/** A rubric with this word gets an answer that is no verdict (a judge model that rambles). */
export const UNJUDGEABLE = "UNJUDGEABLE";

/** How the simulated caller's model is told its part (engine simulation/persona-model.ts). */
const PERSONA_MARK = "role-playing a caller";

/** The verdict a careful judge gives: the quoted phrase is, or is not, among the assistant's lines. */
function verdict(request: ChatRequestBody): ScriptedReply {
  const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
  const rubric = prompt.match(/Rubric:\n([\s\S]*?)\n\nTranscript:/)?.[1] ?? "";
  if (rubric.includes(UNJUDGEABLE)) return { text: "I would rather not say." };
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

/**
 * A persona caller asks for a table; once it has spoken (its own lines come back as the assistant
 * role) it says goodbye and hangs up with the marker its model may use instead of the tool.
 */
function persona(request: ChatRequestBody): ScriptedReply {
  const spoke = request.messages.some((m) => m.role === "assistant");
  return { text: spoke ? "Thank you, goodbye. [HANGUP]" : "I would like a table for two tonight." };
}

/** What the assistant answers; `reply` decides from what the caller has said or keyed so far. */
export function testSuiteModel(reply: (callerSaid: string) => string): ModelScript {
  return (request) => {
    if (isJudgeRequest(request)) return verdict(request);
    if (request.messages[0]?.content?.includes(PERSONA_MARK)) return persona(request);
    return { text: reply(callerSaid(request)) };
  };
}
