import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { threeBranchDesk, wfDefinition, wfEdge, wfNode, workflowRequestKind } from "../../testing/workflow-graphs.ts";
import type { ChatRequest } from "../providers/types.ts";

/** The model double of a workflow call: extraction from the caller's words, a yes to "no more questions". */
function deskModel(request: ChatRequest): string {
  const kind = workflowRequestKind(request);
  const said = (request.messages[1]?.content ?? "").split("\n").at(-1)?.toLowerCase() ?? "";
  if (kind === "extract") {
    const topic = said.includes("bill") ? "billing" : said.includes("else") ? "other" : null;
    const name = said.includes("ann") ? "Ann" : said.includes("cy") ? "Cy" : null;
    return JSON.stringify({ topic, caller_name: name });
  }
  if (kind === "judge") {
    const done = said.includes("all");
    return JSON.stringify({ choice: done ? 1 : 0, reason: done ? "The caller is done." : "Still talking." });
  }
  return "Happy to help with that.";
}

const replies = (call: CallHarness) => call.llm.requests.filter((r) => workflowRequestKind(r) === "reply");

describe("call session with a workflow", () => {
  it("greets with the start node, answers in the branch's step and ends at the end node", async () => {
    const call = new CallHarness({
      assistant: { first_message: "Assistant's own greeting.", system_prompt: "You are Parley." },
      fallbackReply: deskModel,
      workflow: { definition: threeBranchDesk() },
    });
    await call.start();
    await call.untilListening();
    expect(call.tts.texts).toEqual(["Thanks for calling Parley Dental."]);

    call.session.pushText("Hi, it's Ann, I have a question about my bill.");
    await call.untilListening();
    const system = replies(call)[0]?.messages[0]?.content ?? "";
    expect(system).toMatch(/^You are Parley\./);
    expect(system).toContain("Current step: Billing\nHelp Ann with their bill.");
    expect(call.transcript().at(-1)).toBe("assistant: Happy to help with that.");

    call.session.pushText("That's all, thank you.");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("assistant_ended");
    expect(replies(call)).toHaveLength(1);
    expect(call.tts.texts.at(-1)).toBe("Goodbye, Ann!");
    expect(call.workflow?.record().path.map((s) => `${s.node_id}: ${s.reason}`)).toEqual([
      "start: start",
      'triage: "Start" done',
      'route: "Triage" done',
      'billing: topic = "billing"',
      "bye: The caller is done.",
    ]);
    expect(call.workflow?.record().variables).toEqual({ caller_name: "Ann", topic: "billing" });
  });

  it("transfers at a transfer node after saying its message", async () => {
    const call = new CallHarness({ fallbackReply: deskModel, workflow: { definition: threeBranchDesk() } });
    await call.start();
    await call.untilListening();
    call.session.pushText("This is Cy, something else.");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("transferred");
    expect(call.of("transfer").map((e) => e.destination)).toEqual([{ name: "Front desk", number: "+15550001111" }]);
    expect(call.tts.texts.at(-1)).toBe("Let me put you through, Cy.");
    expect(replies(call)).toHaveLength(0);
  });

  it("takes a key press mapped to words as a caller turn (a phone menu into the workflow)", async () => {
    const call = new CallHarness({
      assistant: { dtmf_enabled: true, dtmf_mapping: { "9": "This is Cy, something else." } },
      fallbackReply: deskModel,
      workflow: { definition: threeBranchDesk() },
    });
    await call.start();
    await call.untilListening();
    call.session.pushDtmf("9");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("transferred");
    expect(call.workflow?.record().path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "human"]);
  });

  it("lets the caller speak first when the start node has no greeting", async () => {
    const definition = threeBranchDesk();
    const start = definition.graph.nodes[0];
    if (start?.type === "start") start.data.greeting = "";
    const call = new CallHarness({ fallbackReply: deskModel, workflow: { definition } });
    await call.start();
    await call.wait(1000);
    expect(call.tts.texts).toEqual([]);
    await call.session.hangup("caller_hangup");
  });

  it("logs a tool node's call among the call's tool calls", async () => {
    const definition = wfDefinition(
      {
        nodes: [
          wfNode("start", "start", { name: "Start", greeting: "Hello.", prompt: "" }),
          wfNode("check", "tool", {
            name: "Check hours",
            tool: { kind: "function", function_id: "fn-hours" },
            arguments: { day: "today" },
            result_variable: "hours",
          }),
          wfNode("tell", "conversation", { name: "Tell", prompt: "Say the hours: {{hours}}.", collect: [] }),
        ],
        edges: [wfEdge("start", "check"), wfEdge("check", "tell")],
      },
      [{ name: "hours", type: "string", description: "" }],
    );
    const call = new CallHarness({
      fallbackReply: deskModel,
      workflow: {
        definition,
        effects: {
          runTool: async () => ({ name: "opening_hours", ok: true, content: "9 to 5" }),
          searchKnowledge: async () => ({ name: "search_knowledge", ok: false, content: "" }),
        },
      },
    });
    await call.start();
    await call.untilListening();
    call.session.pushText("When are you open?");
    await call.untilListening();
    expect(call.of("tool_call")).toMatchObject([
      { name: "opening_hours", arguments: '{"day":"today"}', result: "9 to 5", ok: true },
    ]);
    expect(replies(call)[0]?.messages[0]?.content).toContain("Say the hours: 9 to 5.");
    await call.session.hangup("caller_hangup");
  });
});
