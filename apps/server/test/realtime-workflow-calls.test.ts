import type { CallLog, Squad, Workflow } from "@parley/contract";
import { type DoubleReply, startRealtimeDouble } from "@parley/engine/testing/vendor-servers/openai-realtime-double";
import { threeBranchDesk } from "@parley/engine/testing/workflow-graphs";
import { describe, expect, it } from "vitest";
import { call, signedInUser } from "./harness.ts";
import { createAssistant, roomToken } from "./support/calls.ts";
import { APP_ORIGIN, closedCallLog, connectRealtime, joinCall, useCallApp } from "./support/realtime-calls.ts";
import type { RealtimeClient } from "./support/realtime-client.ts";
import type { ChatRequestBody, ModelScript } from "./support/scripted-llm.ts";

/**
 * Issue 32 with issues 15 and 31: a realtime assistant's workflow and squad run on its
 * speech-to-speech model (the OpenAI Realtime double). The workflow's routing goes to the
 * assistant's pipeline model (the scripted model double); each new step's prompt reaches the
 * speech model by `session.update`; an end node ends the call; a squad's hand-off switches the
 * model's prompt and tools in the same session and the log holds both stretches.
 */

const KEY = "sk-realtime-workflow";
const GREETING = "Thanks for calling Parley Dental.";

function lastCallerLine(request: ChatRequestBody): string {
  const transcript = request.messages[1]?.content ?? "";
  const lines = transcript.split("\n").filter((line) => line.startsWith("Caller: "));
  return lines.at(-1)?.toLowerCase() ?? "";
}

/** The routing model: the topic and name off the caller's last line, and "done" at "that's all". */
const script: ModelScript = (request) => {
  const system = request.messages[0]?.content ?? "";
  const said = lastCallerLine(request);
  if (system.startsWith("You read a phone conversation")) {
    const topic = said.includes("bill") ? "billing" : "other";
    return { text: JSON.stringify({ topic, caller_name: said.includes("ann") ? "Ann" : null }) };
  }
  if (system.startsWith("You route a phone conversation")) {
    const done = said.includes("that's all");
    return { text: JSON.stringify({ choice: done ? 1 : 0, reason: done ? "The caller has no more questions." : "" }) };
  }
  return { text: "The pipeline model does not answer on a realtime call." };
};

const t = useCallApp(script);

type SessionUpdate = { session: { instructions: string; tools: { name: string }[] } };
type ResponseCreate = { response?: { instructions?: string } };

async function realtimeDouble(token: string, replies: DoubleReply[]) {
  const double = await startRealtimeDouble({ apiKey: KEY, replies });
  const saved = await call(t, "PUT", "/api/v1/integrations/openai", {
    token,
    body: { credentials: { api_key: KEY, base_url: double.baseUrl.replace(/^ws/, "http") } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return double;
}

/** A realtime assistant whose pipeline model is the scripted double. */
function realtimeAssistant(token: string, fields: Record<string, unknown>) {
  return createAssistant(t, token, {
    engine_mode: "realtime",
    realtime: { provider: "openai-realtime", model: "gpt-realtime", voice: "marin" },
    llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl },
    ...fields,
  });
}

async function publishDesk(token: string, agentId: string): Promise<Workflow> {
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
  return published.json<Workflow>();
}

const assistantSaid = (client: RealtimeClient, text: string) =>
  client.until(
    () => client.messages.some((m) => m.type === "transcript" && m.role === "assistant" && m.final && m.text === text),
    `the assistant to say "${text}"`,
    30_000,
  );

describe("a workflow on a realtime call", () => {
  it("routes on the caller's words, sends the step's prompt by session.update and ends at the end node", async () => {
    const user = await signedInUser(t);
    const double = await realtimeDouble(user.token, [
      { say: GREETING, ms: 300 },
      { say: "Sure, I can help with that.", ms: 300 },
      { say: "You're welcome.", ms: 300 },
      { say: "Goodbye, Ann!", ms: 300 },
    ]);
    try {
      const agentId = await realtimeAssistant(user.token, {
        first_message: "The assistant's own greeting.",
        system_prompt: "You are the Parley Dental assistant.",
      });
      const workflow = await publishDesk(user.token, agentId);
      const { client, callId } = await joinCall(t, user.token, agentId, { origin: APP_ORIGIN });
      await client.waitFor("ready");
      const opening = (await double.received("session.update", 1)) as SessionUpdate;
      expect(opening.session.instructions).toContain("Current step: Start");
      // The start node's greeting replaces the assistant's first message.
      expect(((await double.received("response.create", 1)) as ResponseCreate).response?.instructions).toBe(
        `Greet the caller by saying exactly: "${GREETING}"`,
      );
      await assistantSaid(client, GREETING);

      client.send({ type: "text", text: "Hi, it's Ann, I have a question about my bill." });
      const billing = (await double.received("session.update", 2)) as SessionUpdate;
      expect(billing.session.instructions).toMatch(/^You are the Parley Dental assistant\./);
      expect(billing.session.instructions).toContain("Current step: Billing\nHelp Ann with their bill.");
      // A talking step offers the assistant's own tools (a tool node is run by the graph, not offered).
      expect(billing.session.tools.map((tool) => tool.name)).toEqual(opening.session.tools.map((tool) => tool.name));
      await assistantSaid(client, "Sure, I can help with that.");

      client.send({ type: "text", text: "That's all, thanks." });
      // The end node's message, asked for once the model's own reply is over.
      expect(((await double.received("response.create", 4)) as ResponseCreate).response?.instructions).toBe(
        'Say exactly: "Goodbye, Ann!"',
      );
      const end = await client.waitFor("end", undefined, 30_000);
      expect(end.reason).toBe("assistant_ended");
      await client.closed;

      const log: CallLog = await closedCallLog(t, user.token, callId);
      expect(log.end_reason).toBe("assistant_ended");
      expect(log.workflow).toMatchObject({ workflow_id: workflow.id, version: 1 });
      expect(log.workflow?.path.map((s) => [s.node_id, s.node_type, s.reason])).toEqual([
        ["start", "start", "start"],
        ["triage", "conversation", '"Start" done'],
        ["route", "condition", '"Triage" done'],
        ["billing", "conversation", 'topic = "billing"'],
        ["bye", "end", "The caller has no more questions."],
      ]);
      expect(log.workflow?.variables).toEqual({ caller_name: "Ann", topic: "billing" });
      // The model's own reply and the end node's message follow each other: the log joins them in one line.
      expect(log.transcript.at(-1)).toMatchObject({ role: "assistant", text: "You're welcome. Goodbye, Ann!" });
      expect(log.cost_breakdown?.realtime_tokens?.output_audio).toBeGreaterThan(0);
    } finally {
      await double.close();
    }
  }, 90_000);
});

describe("a realtime assistant with a workflow and no key for its pipeline model", () => {
  it("is refused with the missing-key answer naming the routing model's vendor", async () => {
    const user = await signedInUser(t);
    const saved = await call(t, "PUT", "/api/v1/integrations/openai", {
      token: user.token,
      body: { credentials: { api_key: KEY, base_url: "http://127.0.0.1:9" } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const agentId = await realtimeAssistant(user.token, { llm_provider: "anthropic", llm_provider_config: {} });
    const res = () => call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: user.token });
    // Without a workflow the realtime key is enough.
    expect((await res()).statusCode).toBe(201);
    const created = await call(t, "POST", "/api/v1/workflows", {
      token: user.token,
      body: { name: "Desk", assistant_id: agentId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const refused = await res();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe("No API key for Anthropic. Add one on the Integrations page.");
  });
});

describe("a squad on a realtime call", () => {
  it("hands the call to the next member's prompt and tools in the same model session, in two segments", async () => {
    const user = await signedInUser(t);
    const double = await realtimeDouble(user.token, [
      { say: "Front desk, how can I help?", ms: 300 },
      { call: { name: "handoff_to_billing", arguments: { reason: "The caller asks about an invoice." } } },
      { say: "Let me pass you on. Billing here, I can see your invoice.", ms: 400 },
    ]);
    try {
      const desk = await realtimeAssistant(user.token, {
        name: "Receptionist",
        system_prompt: "You are the receptionist.",
        first_message: "Front desk, how can I help?",
      });
      const billing = await createAssistant(t, user.token, {
        name: "Billing",
        system_prompt: "You are the billing specialist.",
        llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl },
      });
      const created = await call(t, "POST", "/api/v1/squads", {
        token: user.token,
        body: {
          name: "Front office",
          members: [
            { assistant_id: desk, name: "receptionist", first: true },
            { assistant_id: billing, name: "billing" },
          ],
          handoffs: [{ from: "receptionist", to: "billing", description: "The caller asks about an invoice." }],
          bridge_line: "Let me pass you on.",
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const squad = created.json<Squad>();
      const started = await call(t, "POST", `/api/v1/squads/${squad.id}/call`, { token: user.token, body: {} });
      expect(started.statusCode, started.body).toBe(201);
      const { room, call_id: callId } = started.json<{ room: { name: string }; call_id: string }>();
      const client = await connectRealtime(t, await roomToken(t, user.token, room.name), { origin: APP_ORIGIN });
      await client.waitFor("ready");
      const opening = (await double.received("session.update", 1)) as SessionUpdate;
      expect(opening.session.instructions).toMatch(/^You are the receptionist\./);
      expect(opening.session.tools.map((tool) => tool.name)).toContain("handoff_to_billing");
      await assistantSaid(client, "Front desk, how can I help?");

      client.send({ type: "text", text: "I have a question about my invoice." });
      const next = (await double.received("session.update", 2)) as SessionUpdate;
      expect(next.session.instructions).toMatch(/^You are the billing specialist\./);
      expect(next.session.instructions).toContain("You are taking over this call from receptionist");
      expect(next.session.tools.map((tool) => tool.name)).not.toContain("handoff_to_billing");
      // The bridge line is said by the model as it answers the hand-off's output, in the new prompt.
      const answer = (await double.received("response.create", 3)) as ResponseCreate;
      expect(answer.response?.instructions).toMatch(/^You are the billing specialist\./);
      expect(answer.response?.instructions).toContain('Start your reply by saying exactly: "Let me pass you on."');
      await client.waitFor("handoff");
      await assistantSaid(client, "Let me pass you on. Billing here, I can see your invoice.");
      client.send({ type: "hangup" });
      await client.closed;

      const log = await closedCallLog(t, user.token, callId);
      expect(log.segments?.map((s) => [s.member, s.from_member, s.reason])).toEqual([
        ["receptionist", null, null],
        ["billing", "receptionist", "The caller asks about an invoice."],
      ]);
      expect(log.events).toContainEqual(
        expect.objectContaining({ type: "handoff", from: "receptionist", to: "billing" }),
      );
      // One model session: the call is priced at the realtime model's prices, each stretch on its share.
      expect(log.cost_breakdown?.realtime_tokens?.output_audio).toBeGreaterThan(0);
      const stretches = (log.segments ?? []).reduce((sum, s) => sum + s.cost, 0);
      expect(stretches).toBeCloseTo(log.cost ?? 0, 4);
    } finally {
      await double.close();
    }
  }, 90_000);
});
