import { describe, expect, it } from "vitest";
import { testAssistant } from "../../testing/call-harness.ts";
import { closeAfterEach } from "../../testing/close-after-each.ts";
import { defaultNetwork } from "../../testing/default-network.ts";
import { FakeTts, ScriptedLlm } from "../../testing/fake-providers.ts";
import { startLiveDouble } from "../../testing/vendor-servers/gemini-live-double.ts";
import { type DoubleReply, startRealtimeDouble } from "../../testing/vendor-servers/openai-realtime-double.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { threeBranchDesk, wfDefinition, wfEdge, wfNode, workflowRequestKind } from "../../testing/workflow-graphs.ts";
import type { ChatRequest } from "../providers/types.ts";
import { callSettingsOf } from "../session/call-settings.ts";
import type { CallEvent, Handoffs } from "../session/types.ts";
import { WorkflowRunner } from "../workflow/workflow-runner.ts";
import { RealtimeCallSession } from "./realtime-call-session.ts";

const closing = closeAfterEach();

/** The routing model: the caller's topic and name from their words, and "done" when they say that's all. */
function deskModel(request: ChatRequest): string {
  const kind = workflowRequestKind(request);
  const said = (request.messages[1]?.content ?? "").split("\n").at(-1)?.toLowerCase() ?? "";
  if (kind === "extract") {
    const topic = said.includes("bill") ? "billing" : said.includes("else") ? "other" : null;
    return JSON.stringify({ topic, caller_name: said.includes("ann") ? "Ann" : null });
  }
  const done = said.includes("all");
  return JSON.stringify({ choice: done ? 1 : 0, reason: done ? "The caller is done." : "Still talking." });
}

async function realtimeCall(
  replies: DoubleReply[],
  extra: { workflow?: WorkflowRunner; handoffs?: Handoffs; firstMessage?: string } = {},
) {
  const double = closing(await startRealtimeDouble({ apiKey: "sk-test-realtime", replies }));
  const clock = new VirtualClock();
  const events: CallEvent[] = [];
  const waiters: Array<() => void> = [];
  const session = new RealtimeCallSession({
    settings: callSettingsOf(
      testAssistant({ first_message: extra.firstMessage ?? "Hello.", system_prompt: "You are Parley." }),
    ),
    realtime: {
      provider: "openai-realtime",
      model: "gpt-realtime",
      voice: "marin",
      turnDetection: { type: "semantic_vad" },
      inputTranscriptionModel: "gpt-4o-mini-transcribe",
    },
    apiKey: "sk-test-realtime",
    net: defaultNetwork(),
    baseUrl: double.baseUrl,
    clock,
    workflow: extra.workflow,
    handoffs: extra.handoffs,
    sink: {
      onEvent: (event) => {
        events.push(event);
        for (const wake of waiters.splice(0)) wake();
      },
    },
  });
  closing({ close: () => session.hangup("caller_hangup") });
  const until = (match: (event: CallEvent) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (events.some(match) ? resolve() : waiters.push(check));
      check();
    });
  const said = (text: string) => (e: CallEvent) =>
    e.type === "transcript" && e.role === "assistant" && e.final && e.text === text;
  return { double, clock, events, session, until, said };
}

type SessionUpdate = { session: { instructions: string; tools: { name: string }[] } };

function deskRunner(): WorkflowRunner {
  return new WorkflowRunner(threeBranchDesk(), {
    llm: new ScriptedLlm([], { fallback: deskModel }),
    effects: {
      runTool: async () => ({ name: "none", ok: false, content: "no tools in this workflow" }),
      searchKnowledge: async () => ({ name: "none", ok: false, content: "no knowledge in this workflow" }),
    },
  });
}

describe("a workflow on a realtime call", () => {
  it("greets with the start node, sends each new step's prompt by session.update and ends at the end node", async () => {
    const runner = deskRunner();
    const { double, clock, session, until, said } = await realtimeCall(
      [
        { say: "Thanks for calling Parley Dental.", ms: 200 },
        { say: "Sure, what is it about?", ms: 200 },
        { say: "You're welcome.", ms: 200 },
        { say: "Goodbye, Ann!", ms: 300 },
      ],
      { workflow: runner },
    );
    await session.start();
    const first = double.events[0] as SessionUpdate;
    expect(first.session.instructions).toMatch(/^You are Parley\.\n\nYou are the front desk of Parley Dental\./);
    expect(first.session.instructions).toContain("Current step: Start");
    expect(await double.received("response.create")).toMatchObject({
      response: { instructions: 'Greet the caller by saying exactly: "Thanks for calling Parley Dental."' },
    });
    await until(said("Thanks for calling Parley Dental."));
    await clock.advance(300);

    double.callerSaid("Hi, it's Ann, I have a question about my bill.");
    const step = (await double.received("session.update", 2)) as SessionUpdate;
    expect(step.session.instructions).toContain("Current step: Billing\nHelp Ann with their bill.");
    // A talking step offers the assistant's tools as before: the same set as the start's.
    expect(step.session.tools.map((t) => t.name)).toEqual(first.session.tools.map((t) => t.name));
    await until(said("Sure, what is it about?"));
    await clock.advance(300);

    double.callerSaid("That's all, thank you.");
    // The end node's message is asked for once the model's own reply is over.
    expect(await double.received("response.create", 2)).toMatchObject({
      response: { instructions: 'Say exactly: "Goodbye, Ann!"' },
    });
    await until(said("Goodbye, Ann!"));
    // Both replies play out (0.2 s then the farewell's 0.3 s); the call ends after the last frame.
    await clock.advance(1000);
    const summary = await session.done;
    expect(summary.reason).toBe("assistant_ended");
    expect(runner.record().path.map((s) => `${s.node_id}: ${s.reason}`)).toEqual([
      "start: start",
      'triage: "Start" done',
      'route: "Triage" done',
      'billing: topic = "billing"',
      "bye: The caller is done.",
    ]);
    expect(runner.record().variables).toEqual({ caller_name: "Ann", topic: "billing" });
  });
});

describe("a workflow's transfer node on a realtime call", () => {
  it("has the model say the node's message, then transfers", async () => {
    const runner = deskRunner();
    const { double, clock, events, session, until, said } = await realtimeCall(
      [
        { say: "Thanks for calling Parley Dental.", ms: 200 },
        { say: "Let me see.", ms: 200 },
        { say: "Let me put you through, Ann.", ms: 200 },
      ],
      { workflow: runner },
    );
    await session.start();
    await until(said("Thanks for calling Parley Dental."));
    await clock.advance(300);
    double.callerSaid("This is Ann, it's about something else.");
    expect(await double.received("response.create", 2)).toMatchObject({
      response: { instructions: 'Say exactly: "Let me put you through, Ann."' },
    });
    await until(said("Let me put you through, Ann."));
    await clock.advance(1000);
    expect((await session.done).reason).toBe("transferred");
    expect(events.find((e) => e.type === "transfer")).toMatchObject({
      destination: { name: "Front desk", number: "+15550001111" },
    });
    expect(runner.record().path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "human"]);
  });
});

describe("a workflow on a Gemini Live call", () => {
  it("moves the session to one set up with the new step's prompt, and says the end node's message", async () => {
    const KEY = "AIza-test-live-workflow-0000";
    const double = closing(
      await startLiveDouble({
        apiKey: KEY,
        replies: [
          { say: "Thanks for calling Parley Dental.", ms: 200 },
          { say: "Sure, what is it about?", ms: 200 },
          { say: "You're welcome.", ms: 200 },
          { say: "Goodbye, Ann!", ms: 300 },
        ],
      }),
    );
    const clock = new VirtualClock();
    const events: CallEvent[] = [];
    const waiters: Array<() => void> = [];
    const runner = deskRunner();
    const session = new RealtimeCallSession({
      settings: callSettingsOf(testAssistant({ system_prompt: "You are Parley." })),
      realtime: {
        provider: "gemini-live",
        model: "gemini-2.5-flash-native-audio-preview-09-2025",
        voice: "Aoede",
        turnDetection: {},
        inputTranscription: true,
      },
      apiKey: KEY,
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      clock,
      workflow: runner,
      sink: {
        onEvent: (event) => {
          events.push(event);
          for (const wake of waiters.splice(0)) wake();
        },
      },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    const said = (text: string) =>
      new Promise<void>((resolve) => {
        const match = (e: CallEvent) => e.type === "transcript" && e.role === "assistant" && e.final && e.text === text;
        const check = () => (events.some(match) ? resolve() : waiters.push(check));
        check();
      });
    const isSetup = (m: Record<string, unknown>) => "setup" in m;
    await session.start();
    await said("Thanks for calling Parley Dental.");
    await clock.advance(300);
    double.callerSaid("Hi, it's Ann, I have a question about my bill.");
    const setup = (await double.received(isSetup, 2)).setup as { systemInstruction: { parts: { text: string }[] } };
    expect(setup.systemInstruction.parts[0]?.text).toContain("Current step: Billing\nHelp Ann with their bill.");
    await said("Sure, what is it about?");
    await clock.advance(300);
    double.callerSaid("That's all, thank you.");
    await double.received(
      (m) => (m.realtimeInput as { text?: string } | undefined)?.text === 'Say exactly: "Goodbye, Ann!"',
    );
    await said("Goodbye, Ann!");
    await clock.advance(1000);
    expect((await session.done).reason).toBe("assistant_ended");
    expect(runner.record().path.map((s) => s.node_id)).toEqual(["start", "triage", "route", "billing", "bye"]);
  });
});

describe("a squad's hand-off on a realtime call", () => {
  it("switches to the next member's prompt in the same session and has the model say the bridge line", async () => {
    const billing = callSettingsOf(testAssistant({ system_prompt: "You handle billing." }));
    const requests: string[] = [];
    const handoffs: Handoffs = {
      targets: [{ name: "billing", description: "Questions about a bill." }],
      request: (target, reason) => {
        requests.push(`${target}: ${reason}`);
        return {
          bridgeLine: "One moment, I'll get billing.",
          next: Promise.resolve({
            from: "desk",
            to: "billing",
            reason,
            next: { settings: billing, llm: new ScriptedLlm(), tts: new FakeTts(), context: "Taken over from desk." },
            history: [],
          }),
        };
      },
    };
    const { double, events, session, until } = await realtimeCall(
      [
        { say: "Hello.", ms: 200 },
        { call: { name: "handoff_to_billing", arguments: { reason: "a bill question" } } },
        { say: "One moment, I'll get billing. Hi, billing here.", ms: 400 },
      ],
      { handoffs },
    );
    await session.start();
    const first = double.events[0] as SessionUpdate;
    expect(first.session.tools.map((t) => t.name)).toContain("handoff_to_billing");
    double.callerSaid("I have a question about my bill.");
    const update = (await double.received("session.update", 2)) as SessionUpdate;
    expect(update.session.instructions).toBe("You handle billing.\n\nTaken over from desk.");
    expect(update.session.tools.map((t) => t.name)).not.toContain("handoff_to_billing");
    const answer = (await double.received("response.create", 2)) as { response: { instructions: string } };
    expect(answer.response.instructions).toBe(
      'You handle billing.\n\nTaken over from desk.\n\nStart your reply by saying exactly: "One moment, I\'ll get billing."',
    );
    await until((e) => e.type === "handoff");
    expect(requests).toEqual(["billing: a bill question"]);
    expect(events.find((e) => e.type === "handoff")).toMatchObject({ from: "desk", to: "billing" });
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ name: "handoff_to_billing", ok: true });
  });

  it("hands off at a workflow's hand-off node: its message, then the next member's prompt, then its answer", async () => {
    const definition = wfDefinition({
      nodes: [
        wfNode("start", "start", { name: "Start", greeting: "Front desk.", prompt: "" }),
        wfNode("pass", "handoff", { name: "To billing", member: "billing", message: "Passing you to billing." }),
      ],
      edges: [wfEdge("start", "pass")],
    });
    const runner = new WorkflowRunner(definition, {
      llm: new ScriptedLlm([], { fallback: deskModel }),
      effects: {
        runTool: async () => ({ name: "none", ok: false, content: "no tools in this workflow" }),
        searchKnowledge: async () => ({ name: "none", ok: false, content: "no knowledge in this workflow" }),
      },
    });
    const billing = callSettingsOf(testAssistant({ system_prompt: "You handle billing." }));
    const handoffs: Handoffs = {
      targets: [{ name: "billing", description: "Questions about a bill." }],
      request: (_target, reason) => ({
        bridgeLine: null,
        next: Promise.resolve({
          from: "desk",
          to: "billing",
          reason,
          next: { settings: billing, llm: new ScriptedLlm(), tts: new FakeTts() },
          history: [],
        }),
      }),
    };
    const { double, events, session, until, said } = await realtimeCall(
      [
        { say: "Front desk.", ms: 200 },
        { say: "Sure.", ms: 200 },
        { say: "Passing you to billing.", ms: 200 },
        { say: "Billing here.", ms: 200 },
      ],
      { workflow: runner, handoffs },
    );
    await session.start();
    await until(said("Front desk."));
    double.callerSaid("A question about my bill.");
    expect(await double.received("response.create", 2)).toMatchObject({
      response: { instructions: 'Say exactly: "Passing you to billing."' },
    });
    const update = (await double.received("session.update", 2)) as SessionUpdate;
    expect(update.session.instructions).toBe("You handle billing.");
    // The member who took over is asked to speak, on its own prompt (no instructions in the request).
    expect(await double.received("response.create", 3)).toEqual({ type: "response.create" });
    await until(said("Billing here."));
    expect(events.find((e) => e.type === "handoff")).toMatchObject({ from: "desk", to: "billing" });
    expect(runner.record().path.map((s) => s.node_id)).toEqual(["start", "pass"]);
  });
});
