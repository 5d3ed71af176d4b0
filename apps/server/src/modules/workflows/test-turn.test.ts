import type { Workflow, WorkflowGraph, WorkflowTestTurnResult } from "@parley/contract";
import { orderNumberSteps, threeBranchDesk, wfEdge, wfNode } from "@parley/engine/testing/workflow-graphs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { createAssistant, startWebhook } from "../../../test/support/calls.ts";
import { startMcpServer } from "../../../test/support/mcp-server.ts";
import { type ChatRequestBody, type ScriptedLlm, startScriptedLlm } from "../../../test/support/scripted-llm.ts";
import { LAST_MESSAGE_NOT_CALLER, NO_TEST_ASSISTANT, TEST_STEP_GONE } from "./test-turn.ts";

let t: TestApp;
let llm: ScriptedLlm;

/** The model double: extraction and condition checks as JSON, replies naming the step they were asked in. */
function script(request: ChatRequestBody) {
  const system = request.messages[0]?.content ?? "";
  const transcript = request.messages[1]?.content ?? "";
  const said =
    transcript
      .split("\n")
      .filter((l) => l.startsWith("Caller: "))
      .at(-1)
      ?.toLowerCase() ?? "";
  if (system.startsWith("You read a phone conversation")) {
    const topic = said.includes("bill") ? "billing" : said.includes("other") ? "other" : null;
    const order = /order (\d+)/.exec(said)?.[1] ?? null;
    return { text: JSON.stringify({ topic, caller_name: said.includes("ann") ? "Ann" : null, order_id: order }) };
  }
  if (system.startsWith("You route a phone conversation")) {
    return { text: JSON.stringify({ choice: said.includes("that's all") ? 1 : 0, reason: "Nothing more to ask." }) };
  }
  const step = /Current step: (.+)/.exec(system)?.[1] ?? "none";
  return { text: `Answering in ${step}.` };
}

beforeAll(async () => {
  llm = await startScriptedLlm(script);
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
}, 60_000);

afterAll(async () => {
  await t.close();
  await llm.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

/** A workflow with `graph` as its draft (never published), attached to an assistant on the model double. */
async function draftWorkflow(user: User, desk = threeBranchDesk()): Promise<{ workflow: Workflow; agentId: string }> {
  const agentId = await createAssistant(t, user.token, {
    system_prompt: "You are the test desk.",
    llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
  });
  const created = await call(t, "POST", "/api/v1/workflows", {
    token: user.token,
    body: { name: "Desk", assistant_id: agentId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const saved = await call(t, "PATCH", `/api/v1/workflows/${created.json<Workflow>().id}`, {
    token: user.token,
    body: { global_prompt: desk.globalPrompt, variables: desk.variables, graph: desk.graph },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { workflow: saved.json<Workflow>(), agentId };
}

async function turn(user: User, workflowId: string, body: Record<string, unknown>) {
  return call(t, "POST", `/api/v1/workflows/${workflowId}/test-turn`, { token: user.token, body });
}

async function okTurn(user: User, workflowId: string, body: Record<string, unknown>) {
  const res = await turn(user, workflowId, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WorkflowTestTurnResult>();
}

describe("POST /workflows/{id}/test-turn", () => {
  it("runs the draft turn by turn with the client carrying the state, to the end node", async () => {
    const user = await signedInUser(t);
    const { workflow } = await draftWorkflow(user);

    const first = await okTurn(user, workflow.id, { messages: [], state: null });
    expect(first).toMatchObject({ reply: "Thanks for calling Parley Dental.", transitions: [], ended: false });
    expect(first.state.node_id).toBe("start");
    expect(first.state.path).toMatchObject([{ node_id: "start", node_type: "start", reason: "start" }]);

    const messages = [
      { role: "assistant", content: first.reply },
      { role: "user", content: "Hi, this is Ann, it's about my bill." },
    ];
    const second = await okTurn(user, workflow.id, { messages, state: first.state });
    expect(second.transitions).toEqual([
      { from: "start", to: "triage", reason: '"Start" done' },
      { from: "triage", to: "route", reason: '"Triage" done' },
      { from: "route", to: "billing", reason: 'topic = "billing"' },
    ]);
    expect(second.reply).toBe("Answering in Billing.");
    expect(second.state).toMatchObject({ node_id: "billing", variables: { caller_name: "Ann", topic: "billing" } });
    expect(second.state.path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "billing"]);

    messages.push({ role: "assistant", content: second.reply }, { role: "user", content: "That's all, thanks." });
    const third = await okTurn(user, workflow.id, { messages, state: second.state });
    expect(third).toMatchObject({
      reply: "Goodbye, Ann!",
      ended: true,
      action: { type: "end", message: "Goodbye, Ann!" },
      transitions: [{ from: "billing", to: "bye", reason: "Nothing more to ask." }],
    });
  });

  it("answers a transfer node with its action, with the assistant chosen by id", async () => {
    const user = await signedInUser(t);
    const { workflow } = await draftWorkflow(user);
    const other = await createAssistant(t, user.token, {
      name: "Other model",
      llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
    });
    const result = await okTurn(user, workflow.id, {
      assistant_id: other,
      messages: [{ role: "user", content: "This is Ann, something other than that." }],
      state: null,
    });
    expect(result.ended).toBe(true);
    expect(result.action).toEqual({
      type: "transfer",
      destination: "+15550001111",
      message: "Let me put you through, Ann.",
    });
    expect(result.state.node_id).toBe("human");
  });

  it("answers a hand-off node with the squad member it hands the call to (issue 31)", async () => {
    const user = await signedInUser(t);
    const desk = threeBranchDesk();
    desk.graph.nodes = desk.graph.nodes.map((n) =>
      n.id === "human"
        ? {
            ...n,
            type: "handoff",
            data: { name: "Billing desk", member: "billing", message: "Passing you on, {{caller_name}}." },
          }
        : n,
    ) as typeof desk.graph.nodes;
    const { workflow } = await draftWorkflow(user, desk);
    const result = await okTurn(user, workflow.id, {
      messages: [{ role: "user", content: "This is Ann, something other than that." }],
      state: null,
    });
    expect(result.ended).toBe(true);
    expect(result.action).toEqual({ type: "handoff", member: "billing", message: "Passing you on, Ann." });
    expect(result.reply).toBe("Passing you on, Ann.");
    expect(result.state.node_id).toBe("human");
  });

  it("runs a tool node's function through its webhook with typed arguments", async () => {
    const webhook = await startWebhook({ status: "shipped" });
    try {
      const user = await signedInUser(t);
      const fn = await call(t, "POST", "/api/v1/functions", {
        token: user.token,
        body: {
          name: "order_status",
          description: "The status of an order",
          url: webhook.url,
          parameters: { type: "object", properties: { order: { type: "integer" } } },
        },
      });
      expect(fn.statusCode, fn.body).toBe(201);
      const graph: WorkflowGraph = {
        nodes: [
          ...orderNumberSteps(),
          wfNode("status", "tool", {
            name: "Order status",
            tool: { kind: "function", function_id: fn.json<{ id: string }>().id },
            arguments: { order: "{{order_id}}" },
            result_variable: "status",
          }),
          wfNode("tell", "conversation", { name: "Tell", prompt: "Say: {{status}}", collect: [] }),
        ],
        edges: [wfEdge("start", "ask"), wfEdge("ask", "status"), wfEdge("status", "tell")],
      };
      const desk = threeBranchDesk();
      const { workflow } = await draftWorkflow(user, {
        ...desk,
        graph,
        variables: [
          { name: "order_id", type: "number", description: "" },
          { name: "status", type: "string", description: "" },
        ],
      });
      const result = await okTurn(user, workflow.id, {
        messages: [{ role: "user", content: "It's order 1234." }],
        state: null,
      });
      expect(webhook.calls).toEqual([{ order: 1234 }]);
      expect(result.state.variables).toEqual({ order_id: 1234, status: '{"status":"shipped"}' });
      expect(result.reply).toBe("Answering in Tell.");
    } finally {
      await webhook.close();
    }
  });

  it("calls an MCP server's tool and searches knowledge, keeping their results in variables", async () => {
    const mcp = await startMcpServer([
      { name: "loyalty_tier", description: "Tier of a member", answer: (args) => `gold for ${String(args.member)}` },
    ]);
    try {
      const user = await signedInUser(t);
      const server = await call(t, "POST", "/api/v1/mcp-servers", {
        token: user.token,
        body: { name: "CRM", url: mcp.url, timeout: 5 },
      });
      expect(server.statusCode, server.body).toBe(201);
      const serverId = server.json<{ mcp_server: { id: string } }>().mcp_server.id;
      const graph: WorkflowGraph = {
        nodes: [
          wfNode("start", "start", { name: "Start", greeting: "Hello.", prompt: "" }),
          wfNode("tier", "tool", {
            name: "Tier",
            tool: { kind: "mcp", mcp_server_id: serverId, tool_name: "loyalty_tier" },
            arguments: { member: "M-7" },
            result_variable: "tier",
          }),
          wfNode("faq", "knowledge", { name: "Perks", query: "perks of {{tier}}", result_variable: "perks" }),
          wfNode("tell", "conversation", { name: "Tell", prompt: "Tier {{tier}}; perks: {{perks}}", collect: [] }),
        ],
        edges: [
          wfEdge("start", "tier"),
          wfEdge("tier", "faq"),
          wfEdge("faq", "tell", { kind: "variable", variable: "perks", operator: "is_set" }),
          { ...wfEdge("faq", "tell", { kind: "default" }, "No documents"), id: "faq-default" },
        ],
      };
      const { workflow } = await draftWorkflow(user, {
        ...threeBranchDesk(),
        graph,
        variables: [
          { name: "tier", type: "string", description: "" },
          { name: "perks", type: "string", description: "" },
        ],
      });
      const result = await okTurn(user, workflow.id, { messages: [{ role: "user", content: "Hi." }], state: null });
      expect(mcp.calls).toEqual([{ name: "loyalty_tier", args: { member: "M-7" } }]);
      // The workspace has no documents: the search finds nothing, so the default edge is taken.
      expect(result.state.variables).toEqual({ tier: "gold for M-7", perks: null });
      expect(result.transitions.at(-1)).toEqual({
        from: "faq",
        to: "tell",
        reason: "No documents: no other condition matched",
      });
    } finally {
      await mcp.close();
    }
  });

  it("refuses a test without an assistant, a step the draft lost, and a turn that does not end with the caller", async () => {
    const user = await signedInUser(t);
    const created = await call(t, "POST", "/api/v1/workflows", { token: user.token, body: { name: "Lonely" } });
    const lonely = created.json<Workflow>().id;
    const none = await turn(user, lonely, { messages: [], state: null });
    expect(none.statusCode).toBe(422);
    expect(none.json().detail).toBe(NO_TEST_ASSISTANT);

    const { workflow } = await draftWorkflow(user);
    const state = { node_id: "deleted-step", variables: {}, path: [] };
    const gone = await turn(user, workflow.id, { messages: [{ role: "user", content: "Hi" }], state });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().detail).toBe(TEST_STEP_GONE);

    const first = await okTurn(user, workflow.id, { messages: [], state: null });
    const late = await turn(user, workflow.id, {
      messages: [{ role: "assistant", content: "Hi" }],
      state: first.state,
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().detail).toBe(LAST_MESSAGE_NOT_CALLER);
  });

  it("keeps workflows and assistants to their workspace and needs a signed-in caller", async () => {
    const owner = await signedInUser(t);
    const stranger = await signedInUser(t);
    const { workflow, agentId } = await draftWorkflow(owner);
    expect((await turn(stranger, workflow.id, { messages: [], state: null })).statusCode).toBe(404);
    const { workflow: theirs } = await draftWorkflow(stranger);
    const foreign = await turn(stranger, theirs.id, { assistant_id: agentId, messages: [], state: null });
    expect(foreign.statusCode).toBe(404);
    const anonymous = await call(t, "POST", `/api/v1/workflows/${workflow.id}/test-turn`, {
      body: { messages: [], state: null },
    });
    expect(anonymous.statusCode).toBe(401);
    const invalid = await turn(owner, workflow.id, { messages: [{ role: "system", content: "x" }], state: null });
    expect(invalid.statusCode).toBe(422);
  });
});
