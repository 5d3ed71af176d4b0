import type { WorkflowToolRef } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { ScriptedLlm } from "../../testing/fake-providers.ts";
import {
  orderNumberSteps,
  threeBranchDesk,
  wfDefinition,
  wfEdge,
  wfNode,
  workflowRequestKind,
} from "../../testing/workflow-graphs.ts";
import type { ChatMessage, ChatRequest } from "../providers/types.ts";
import type { WorkflowDefinition, WorkflowEffects, WorkflowStepRun } from "./types.ts";
import { WorkflowRunner } from "./workflow-runner.ts";

/** A model double: extraction answers from `extract`, condition checks from `judge`. */
function judgeLlm(script: {
  extract?: (request: ChatRequest) => Record<string, unknown>;
  judge?: (request: ChatRequest) => { choice: number; reason: string };
}) {
  return new ScriptedLlm([], {
    fallback: (request) => {
      const kind = workflowRequestKind(request);
      if (kind === "extract") return JSON.stringify(script.extract?.(request) ?? {});
      if (kind === "judge") return JSON.stringify(script.judge?.(request) ?? { choice: 0, reason: "" });
      return "Okay.";
    },
  });
}

const noEffects: WorkflowEffects = {
  runTool: async () => ({ name: "none", ok: false, content: "no tools here" }),
  searchKnowledge: async () => ({ name: "search_knowledge", ok: false, content: "no knowledge here" }),
};

class Turns {
  readonly history: ChatMessage[] = [];
  readonly runs: WorkflowStepRun[] = [];
  readonly errors: string[] = [];
  now = 0;

  constructor(readonly runner: WorkflowRunner) {}

  /** The caller says `text` 1 s later; the workflow advances. */
  async caller(text: string) {
    this.now += 1000;
    this.history.push({ role: "user", content: text });
    const turn = await this.runner.advance(this.history, {
      atMs: () => this.now,
      signal: new AbortController().signal,
      observer: { onStepRun: (r) => this.runs.push(r), onError: (m) => this.errors.push(m) },
    });
    this.history.push({ role: "assistant", content: "(reply)" });
    return turn;
  }

  nodes(): string[] {
    return this.runner.record().path.map((s) => s.node_id);
  }
}

function runner(
  definition: WorkflowDefinition,
  llm: ScriptedLlm,
  extra: Partial<ConstructorParameters<typeof WorkflowRunner>[1]> = {},
) {
  return new Turns(new WorkflowRunner(definition, { llm, effects: noEffects, today: "2026-03-02", ...extra }));
}

/** What the caller said last, lower-cased, as the extraction double reads it. */
const lastCaller = (request: ChatRequest) =>
  (request.messages[1]?.content ?? "").split("\n").at(-1)?.toLowerCase() ?? "";

describe("workflow runner: start and branches", () => {
  it("enters the start node and says its greeting with the call's values filled in", () => {
    const definition = threeBranchDesk();
    const start = definition.graph.nodes[0];
    if (start?.type === "start") start.data.greeting = "Hi {{caller_name}}, thanks for calling.";
    const turns = runner(definition, judgeLlm({}), { seed: { caller_name: "Ann" } });
    expect(turns.runner.begin(0)).toBe("Hi Ann, thanks for calling.");
    expect(turns.runner.record()).toEqual({
      workflow_id: "wf-1",
      version: 1,
      path: [{ node_id: "start", node_name: "Start", node_type: "start", entered_at_ms: 0, reason: "start" }],
      variables: { caller_name: "Ann", topic: null },
    });
    expect(turns.runner.begin(5)).toBeNull();
  });

  it("routes two callers down different branches by the topic the model extracted", async () => {
    const extract = (request: ChatRequest) => {
      const said = lastCaller(request);
      return {
        topic: said.includes("bill") ? "Billing" : said.includes("appointment") ? "booking" : null,
        caller_name: said.includes("ann") ? "Ann" : said.includes("bob") ? "Bob" : null,
      };
    };
    const ann = runner(threeBranchDesk(), judgeLlm({ extract }));
    ann.runner.begin(0);
    const first = await ann.caller("Hi, this is Ann, I have a question about my bill.");
    expect(first.transitions).toEqual([
      { from: "start", to: "triage", reason: '"Start" done' },
      { from: "triage", to: "route", reason: '"Triage" done' },
      { from: "route", to: "billing", reason: 'topic = "billing"' },
    ]);
    expect(first.finish).toBeNull();
    expect(ann.runner.record().variables).toEqual({ caller_name: "Ann", topic: "billing" });
    expect(ann.runner.record().path.map((s) => s.entered_at_ms)).toEqual([0, 1000, 1000, 1000]);

    const bob = runner(threeBranchDesk(), judgeLlm({ extract }));
    bob.runner.begin(0);
    await bob.caller("Hello there.");
    expect(bob.nodes()).toEqual(["start", "triage"]);
    await bob.caller("I'm Bob and I'd like an appointment.");
    expect(bob.nodes()).toEqual(["start", "triage", "route", "booking"]);
    expect(bob.runner.record().variables).toEqual({ caller_name: "Bob", topic: "booking" });
  });

  it("stays in a step until its required variables are collected, without judging its edges", async () => {
    const llm = judgeLlm({ extract: () => ({ topic: null }) });
    const turns = runner(threeBranchDesk(), llm);
    turns.runner.begin(0);
    await turns.caller("Hello.");
    const before = llm.requests.length;
    const turn = await turns.caller("Um, hold on.");
    expect(turn.transitions).toEqual([]);
    expect(turns.runner.current?.id).toBe("triage");
    expect(llm.requests.slice(before).map(workflowRequestKind)).toEqual(["extract"]);
  });

  it("takes the default edge of a router when no condition holds, and finishes at a transfer", async () => {
    const turns = runner(threeBranchDesk(), judgeLlm({ extract: () => ({ topic: "other", caller_name: "Cy" }) }));
    turns.runner.begin(0);
    const turn = await turns.caller("It's Cy, something else entirely.");
    expect(turn.transitions.at(-1)).toEqual({ from: "route", to: "human", reason: "no other condition matched" });
    expect(turn.finish).toEqual({
      type: "transfer",
      nodeName: "Front desk",
      destination: "+15550001111",
      message: "Let me put you through, Cy.",
    });
    expect(turns.runner.finished).toBe(true);
    expect(await turns.caller("Hello?")).toEqual({ transitions: [], finish: null });
  });
});

describe("workflow runner: model conditions", () => {
  it("follows the edge the model picks, with its reason, and ends at the end node", async () => {
    const judge = (request: ChatRequest) => {
      expect(request.messages[1]?.content).toContain("1. The caller has no more questions");
      return { choice: 1, reason: "The caller said that was all." };
    };
    const turns = runner(
      threeBranchDesk(),
      judgeLlm({ extract: () => ({ topic: "billing", caller_name: "Ann" }), judge }),
    );
    turns.runner.begin(0);
    await turns.caller("Ann here, billing please.");
    const turn = await turns.caller("That's all, thanks.");
    expect(turn.transitions).toEqual([{ from: "billing", to: "bye", reason: "The caller said that was all." }]);
    expect(turn.finish).toEqual({ type: "end", nodeName: "Goodbye", message: "Goodbye, Ann!" });
  });

  it("stays when the model judges no condition true and there is no default", async () => {
    const turns = runner(
      threeBranchDesk(),
      judgeLlm({ extract: () => ({ topic: "billing" }), judge: () => ({ choice: 0, reason: "" }) }),
    );
    turns.runner.begin(0);
    await turns.caller("Billing.");
    const turn = await turns.caller("Why is my bill so high?");
    expect(turn.transitions).toEqual([]);
    expect(turns.runner.current?.id).toBe("billing");
  });

  it("asks about all of a node's model conditions in one request and falls back to the default", async () => {
    const graph = {
      nodes: [
        wfNode("start", "start", { name: "Start", greeting: "Hi.", prompt: "" }),
        wfNode("a", "conversation", { name: "A", prompt: "a", collect: [] }),
        wfNode("b", "conversation", { name: "B", prompt: "b", collect: [] }),
        wfNode("c", "conversation", { name: "C", prompt: "c", collect: [] }),
      ],
      edges: [
        wfEdge("start", "a", { kind: "model", description: "wants A" }),
        wfEdge("start", "b", { kind: "model", description: "wants B" }),
        wfEdge("start", "c", { kind: "default" }, "Anything else"),
      ],
    };
    const llm = judgeLlm({ judge: () => ({ choice: 7, reason: "out of range" }) });
    const turns = runner(wfDefinition(graph), llm);
    turns.runner.begin(0);
    const turn = await turns.caller("Hmm.");
    expect(llm.requests.map(workflowRequestKind)).toEqual(["judge"]);
    expect(turn.transitions).toEqual([{ from: "start", to: "c", reason: "Anything else: no other condition matched" }]);
  });

  it("carries on when the model fails: reported, and the default edge taken", async () => {
    const llm = new ScriptedLlm([], {
      fallback: () => {
        throw new Error("model down");
      },
    });
    const graph = {
      nodes: [
        wfNode("start", "start", { name: "Start", greeting: "", prompt: "" }),
        wfNode("a", "conversation", { name: "A", prompt: "a", collect: [] }),
        wfNode("b", "conversation", { name: "B", prompt: "b", collect: [] }),
      ],
      edges: [
        wfEdge("start", "a", { kind: "model", description: "wants A" }),
        wfEdge("start", "b", { kind: "default" }),
      ],
    };
    const turns = runner(wfDefinition(graph), llm);
    expect(turns.runner.begin(0)).toBeNull();
    await turns.caller("Hi.");
    expect(turns.nodes()).toEqual(["start", "b"]);
    expect(turns.errors).toEqual(["Workflow condition check failed: model down"]);
  });
});

describe("workflow runner: tool and knowledge nodes", () => {
  function lookupGraph(tool: WorkflowToolRef) {
    return wfDefinition(
      {
        nodes: [
          ...orderNumberSteps(),
          wfNode("lookup", "tool", {
            name: "Look up order",
            tool,
            arguments: { id: "{{order_id}}", note: "from {{who}}" },
            result_variable: "days",
          }),
          wfNode("faq", "knowledge", {
            name: "Shipping FAQ",
            query: "delay of {{days}} days",
            result_variable: "policy",
          }),
          wfNode("late", "conversation", { name: "Late", prompt: "Apologise: {{days}} days.", collect: [] }),
          wfNode("ok", "conversation", { name: "On time", prompt: "Reassure.", collect: [] }),
        ],
        edges: [
          wfEdge("start", "ask"),
          wfEdge("ask", "lookup"),
          wfEdge("lookup", "faq", { kind: "variable", variable: "days", operator: "gt", value: "3" }),
          wfEdge("lookup", "ok", { kind: "default" }),
          wfEdge("faq", "late"),
        ],
      },
      [
        { name: "order_id", type: "number", description: "The order number" },
        { name: "days", type: "number", description: "" },
        { name: "policy", type: "string", description: "" },
      ],
    );
  }

  it("runs the tool with its arguments filled, types its result and routes on it, then searches knowledge", async () => {
    const calls: unknown[] = [];
    const effects: WorkflowEffects = {
      runTool: async (tool, args) => {
        calls.push({ tool, args });
        return { name: "lookup_order", ok: true, content: " 5 " };
      },
      searchKnowledge: async (query) => {
        calls.push({ query });
        return { name: "search_knowledge", ok: true, content: "Late orders ship free." };
      },
    };
    const tool: WorkflowToolRef = { kind: "function", function_id: "fn-1" };
    const turns = runner(lookupGraph(tool), judgeLlm({ extract: () => ({ order_id: "1,234" }) }), {
      effects,
      seed: { who: "campaign" },
    });
    turns.runner.begin(0);
    await turns.caller("It's order 1234.");
    expect(turns.nodes()).toEqual(["start", "ask", "lookup", "faq", "late"]);
    expect(calls).toEqual([{ tool, args: { id: "1234", note: "from campaign" } }, { query: "delay of 5 days" }]);
    expect(turns.runner.record().variables).toEqual({ order_id: 1234, days: 5, policy: "Late orders ship free." });
    expect(turns.runs.map((r) => [r.name, r.arguments, r.ok])).toEqual([
      ["lookup_order", '{"id":"1234","note":"from campaign"}', true],
      ["search_knowledge", '{"query":"delay of 5 days"}', true],
    ]);
    const prompt = turns.runner.systemPrompt("You are Parley.");
    expect(prompt).toContain("Current step: Late\nApologise: 5 days.");
    expect(prompt).toContain("- Shipping FAQ: Late orders ship free.");
  });

  it("leaves the result variable unset when the tool fails, so the default edge is taken", async () => {
    const effects: WorkflowEffects = {
      ...noEffects,
      runTool: async () => {
        throw new Error("webhook timed out");
      },
    };
    const turns = runner(
      lookupGraph({ kind: "mcp", mcp_server_id: "m1", tool_name: "orders" }),
      judgeLlm({ extract: () => ({ order_id: 7 }) }),
      { effects },
    );
    turns.runner.begin(0);
    await turns.caller("Seven.");
    expect(turns.nodes()).toEqual(["start", "ask", "lookup", "ok"]);
    expect(turns.runner.record().variables.days).toBeNull();
    expect(turns.runs[0]).toMatchObject({ name: "Look up order", ok: false, result: "webhook timed out" });
  });
});

describe("workflow runner: prompts, state and safety", () => {
  it("builds the step's prompt from the assistant's, the global prompt, the step and what is still missing", async () => {
    const turns = runner(threeBranchDesk(), judgeLlm({ extract: () => ({ caller_name: "Ann" }) }));
    turns.runner.begin(0);
    await turns.caller("Hi, I'm Ann.");
    const prompt = turns.runner.systemPrompt("Be brief.");
    expect(prompt).toBe(
      [
        "Be brief.",
        "You are the front desk of Parley Dental.",
        "Current step: Triage\nAsk what the call is about and the caller's first name.",
        "Find out from the caller, one thing at a time:\n- topic: billing, booking or other (required)",
        'Known about this call:\n- caller_name: "Ann"',
      ].join("\n\n"),
    );
  });

  it("writes an unknown variable in a prompt as unknown, never as braces", () => {
    const definition = threeBranchDesk();
    definition.globalPrompt = "Caller: {{caller_name}}.";
    const turns = runner(definition, judgeLlm({}));
    turns.runner.begin(0);
    expect(turns.runner.systemPrompt("")).toContain("Caller: unknown.");
  });

  it("resumes from a carried state (the text test) and types its values again", async () => {
    const first = runner(threeBranchDesk(), judgeLlm({ extract: () => ({ topic: "booking", caller_name: "Bo" }) }));
    first.runner.begin(0);
    await first.caller("Booking for Bo.");
    const state = first.runner.state;
    const resumed = new WorkflowRunner(threeBranchDesk(), {
      llm: judgeLlm({ judge: () => ({ choice: 1, reason: "Booked." }) }),
      effects: noEffects,
      state: { ...state, variables: { ...state.variables, topic: "BOOKING" } },
    });
    expect(resumed.current?.id).toBe("booking");
    expect(resumed.state.variables).toEqual({ caller_name: "Bo", topic: "booking" });
    const turn = await resumed.advance([{ role: "user", content: "Thursday works." }], {
      atMs: () => 9000,
      signal: new AbortController().signal,
    });
    expect(turn.finish).toMatchObject({ type: "end", message: "Goodbye, Bo!" });
    expect(resumed.record().path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "booking", "bye"]);
  });

  it("runs turns one after another: a turn asked for meanwhile starts where the previous ended", async () => {
    const turns = runner(
      threeBranchDesk(),
      judgeLlm({ extract: (r) => ({ topic: lastCaller(r).includes("bill") ? "billing" : null }) }),
    );
    turns.runner.begin(0);
    const options = { atMs: () => 1, signal: new AbortController().signal };
    const [a, b] = await Promise.all([
      turns.runner.advance([{ role: "user", content: "Hi." }], options),
      turns.runner.advance([{ role: "user", content: "Hi. About my bill." }], options),
    ]);
    expect(a.transitions.map((t) => t.to)).toEqual(["triage"]);
    expect(b.transitions.map((t) => t.to)).toEqual(["route", "billing"]);
  });

  it("stops a turn that loops through routers and says so", async () => {
    const graph = {
      nodes: [
        wfNode("start", "start", { name: "Start", greeting: "Hi.", prompt: "" }),
        wfNode("r1", "condition", { name: "R1" }),
        wfNode("r2", "condition", { name: "R2" }),
      ],
      edges: [wfEdge("start", "r1"), wfEdge("r1", "r2", { kind: "default" }), wfEdge("r2", "r1", { kind: "default" })],
    };
    const turns = runner(wfDefinition(graph), judgeLlm({}));
    turns.runner.begin(0);
    const turn = await turns.caller("Hello.");
    expect(turn.transitions).toHaveLength(25);
    expect(turns.errors[0]).toMatch(/passed 25 steps in one turn/);
  });
});
