import type { CallLog, Workflow } from "@parley/contract";
import { threeBranchDesk } from "@parley/engine/testing/workflow-graphs";
import { describe, expect, it } from "vitest";
import { call, signedInUser } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { APP_ORIGIN, joinCall, useCallApp } from "./support/realtime-calls.ts";
import type { ChatRequestBody, ModelScript } from "./support/scripted-llm.ts";

/**
 * Issue 15's acceptance: an assistant attached to a published three-branch workflow takes two
 * scripted callers down different branches over the real call path (realtime socket, engine
 * session, OpenAI-compatible model double), and their call logs hold the paths and variables.
 */

/** What the caller said last, as a workflow request to the model shows it. */
function lastCallerLine(request: ChatRequestBody): string {
  const transcript = request.messages[1]?.content ?? "";
  return (
    transcript
      .split("\n")
      .filter((line) => line.startsWith("Caller: "))
      .at(-1)
      ?.toLowerCase() ?? ""
  );
}

/**
 * The model: extraction reads the topic and name off the caller's last line, a condition check says
 * "no more questions" when the caller says that's all, and replies are one short sentence.
 */
const script: ModelScript = (request) => {
  const system = request.messages[0]?.content ?? "";
  const said = lastCallerLine(request);
  if (system.startsWith("You read a phone conversation")) {
    const topic = said.includes("bill") ? "billing" : said.includes("appointment") ? "booking" : "other";
    const name = /it's (\w+)|this is (\w+)/.exec(said);
    const caller = name?.[1] ?? name?.[2] ?? null;
    return { text: JSON.stringify({ topic, caller_name: caller && caller[0]?.toUpperCase() + caller.slice(1) }) };
  }
  if (system.startsWith("You route a phone conversation")) {
    const done = said.includes("that's all");
    return { text: JSON.stringify({ choice: done ? 1 : 0, reason: done ? "The caller has no more questions." : "" }) };
  }
  return { text: "Sure, I can help with that." };
};

const t = useCallApp(script);

/** An assistant on the model double with the desk workflow attached and published. */
async function deskAssistant(token: string): Promise<{ agentId: string; workflow: Workflow }> {
  const agentId = await createAssistant(t, token, {
    name: "Dental desk",
    first_message: "The assistant's own greeting.",
    system_prompt: "You are the Parley Dental assistant.",
    llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl },
  });
  const created = await call(t, "POST", "/api/v1/workflows", {
    token,
    body: { name: "Dental desk", assistant_id: agentId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<Workflow>().id;
  const desk = threeBranchDesk();
  const saved = await call(t, "PATCH", `/api/v1/workflows/${id}`, {
    token,
    body: { global_prompt: desk.globalPrompt, variables: desk.variables, graph: desk.graph },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const published = await call(t, "POST", `/api/v1/workflows/${id}/publish`, { token });
  expect(published.statusCode, published.body).toBe(200);
  return { agentId, workflow: published.json<Workflow>() };
}

/** One browser call: the caller types each line after the assistant has answered the one before. */
async function callAndSay(token: string, agentId: string, lines: string[]) {
  const { client, callId } = await joinCall(t, token, agentId, { origin: APP_ORIGIN });
  await client.waitFor("ready");
  const finals = () => client.messages.filter((m) => m.type === "transcript" && m.role === "assistant" && m.final);
  await client.until(() => finals().length >= 1, "the greeting");
  for (const [index, line] of lines.entries()) {
    client.send({ type: "text", text: line });
    await client.until(() => finals().length >= index + 2, `the answer to "${line}"`, 30_000);
  }
  const end = await client.waitFor("end", undefined, 30_000);
  await client.closed;
  return { callId, client, end };
}

async function completedLog(token: string, callId: string): Promise<CallLog> {
  for (let i = 0; i < 200; i += 1) {
    const res = await call(t, "GET", `/api/v1/call-logs/${callId}`, { token });
    const log = res.json<CallLog>();
    if (log.status === "completed") return log;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`call ${callId} never completed`);
}

const assistantLines = (log: CallLog) => log.transcript.filter((l) => l.role === "assistant").map((l) => l.text);

describe("workflows in calls", () => {
  it("routes two callers down different branches and logs their paths and variables", async () => {
    const user = await signedInUser(t);
    const { agentId, workflow } = await deskAssistant(user.token);

    const ann = await callAndSay(user.token, agentId, [
      "Hi, it's Ann, I have a question about my bill.",
      "That's all, thanks.",
    ]);
    expect(ann.end.reason).toBe("assistant_ended");
    const annLog = await completedLog(user.token, ann.callId);
    expect(assistantLines(annLog)).toEqual([
      "Thanks for calling Parley Dental.",
      "Sure, I can help with that.",
      "Goodbye, Ann!",
    ]);
    expect(annLog.workflow).toMatchObject({ workflow_id: workflow.id, version: 1 });
    expect(annLog.workflow?.path.map((s) => [s.node_id, s.node_type, s.reason])).toEqual([
      ["start", "start", "start"],
      ["triage", "conversation", '"Start" done'],
      ["route", "condition", '"Triage" done'],
      ["billing", "conversation", 'topic = "billing"'],
      ["bye", "end", "The caller has no more questions."],
    ]);
    expect(annLog.workflow?.variables).toEqual({ caller_name: "Ann", topic: "billing" });
    const entered = annLog.workflow?.path.map((s) => s.entered_at_ms) ?? [];
    expect(entered).toEqual([...entered].sort((a, b) => a - b));

    const cy = await callAndSay(user.token, agentId, ["Hello, this is Cy, it's about something else."]);
    expect(cy.end.reason).toBe("transferred");
    const cyLog = await completedLog(user.token, cy.callId);
    expect(cyLog.end_reason).toBe("transferred");
    expect(assistantLines(cyLog).at(-1)).toBe("Let me put you through, Cy.");
    expect(cyLog.workflow?.path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "human"]);
    expect(cyLog.workflow?.path.at(-1)?.reason).toBe("no other condition matched");
    expect(cyLog.workflow?.variables).toEqual({ caller_name: "Cy", topic: "other" });
    expect(cyLog.events).toContainEqual(
      expect.objectContaining({ type: "transfer", destination: { name: "Front desk", number: "+15550001111" } }),
    );

    // The billing answer was written in the billing step, on the assistant's own prompt.
    const replies = t.llm.requests.filter((r) => r.messages[0]?.content?.startsWith("You are the Parley Dental"));
    expect(replies.map((r) => r.messages[0]?.content).some((s) => s?.includes("Current step: Billing"))).toBe(true);
  }, 120_000);

  it("runs no workflow for an assistant whose workflow was never published", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, {
      first_message: "Hello from the prompt.",
      llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl },
    });
    const created = await call(t, "POST", "/api/v1/workflows", {
      token: user.token,
      body: { name: "Draft only", assistant_id: agentId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { client, callId } = await joinCall(t, user.token, agentId, { origin: APP_ORIGIN });
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);
    client.send({ type: "hangup" });
    await client.closed;
    const log = await completedLog(user.token, callId);
    expect(assistantLines(log)).toEqual(["Hello from the prompt."]);
    expect(log.workflow).toBeNull();
  }, 60_000);
});
