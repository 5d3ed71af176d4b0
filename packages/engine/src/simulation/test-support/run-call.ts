import { CallerBehaviours } from "@parley/contract";
import { FakeTts } from "../../../testing/fake-providers.ts";
import { VirtualClock } from "../../../testing/virtual-clock.ts";
import type { LlmProvider, TtsProvider } from "../../providers/types.ts";
import { createSimulatedCaller } from "../simulated-caller.ts";
import type { CallerPlan, CallerReport, Line, LineMeter, SimulatedCaller } from "../types.ts";
import { FakeAssistant, type FakeAssistantOptions } from "./fake-assistant.ts";

export interface CallSetup {
  plan?: Partial<Omit<CallerPlan, "behaviours">> & { behaviours?: Partial<CallerBehaviours> };
  assistant?: FakeAssistantOptions;
  assistantSpeaksFirst?: boolean;
  llm?: LlmProvider | null;
  tts?: TtsProvider;
  /** The call's clock, when a double needs it before the call starts. */
  clock?: VirtualClock;
  /** The line between the two sides, and a meter watching both (as the server's test line wires them). */
  line?: { line: Line; meter: LineMeter };
}

export interface Call {
  clock: VirtualClock;
  caller: SimulatedCaller;
  assistant: FakeAssistant;
  tts: TtsProvider;
  /** The caller's report once `done` resolved. */
  report(): CallerReport | null;
  /** Runs the call on virtual time until the caller is done (or `maxMs` passes). */
  finish(maxMs?: number): Promise<CallerReport>;
}

/** A simulated caller on a virtual clock, talking to a fake assistant, started. */
export function startCall(setup: CallSetup = {}): Call {
  const clock = setup.clock ?? new VirtualClock();
  const { behaviours, ...planFields } = setup.plan ?? {};
  const plan: CallerPlan = {
    mode: "script",
    persona: "",
    script: [{ text: "hello", wait_ms: 400 }],
    maxTurns: 8,
    language: "en",
    ...planFields,
    behaviours: CallerBehaviours.parse(behaviours ?? {}),
  };
  const tts = setup.tts ?? new FakeTts();
  const caller = createSimulatedCaller({
    plan,
    tts,
    llm: setup.llm ?? null,
    assistantSpeaksFirst: setup.assistantSpeaksFirst ?? (setup.assistant?.greetingMs ?? 0) > 0,
    clock,
  });
  const assistant = new FakeAssistant(clock, setup.line ? overLine(caller, setup.line) : caller, setup.assistant);
  const state: { report: CallerReport | null } = { report: null };
  void caller.done.then((done) => {
    state.report = done;
  });
  caller.start();
  return {
    clock,
    caller,
    assistant,
    tts,
    report: () => state.report,
    async finish(maxMs = 180_000) {
      await clock.until(() => state.report !== null, maxMs);
      assistant.close();
      if (!state.report) throw new Error("the caller did not finish");
      return state.report;
    },
  };
}

/** The caller as the assistant reaches it through a line: each side's clean audio metered, then carried. */
function overLine(caller: SimulatedCaller, { line, meter }: { line: Line; meter: LineMeter }): SimulatedCaller {
  return {
    done: caller.done,
    start: () => caller.start(),
    stop: () => caller.stop(),
    hearWords: (text) => caller.hearWords(text),
    onDtmf: (listener) => caller.onDtmf(listener),
    onHangup: (listener) => caller.onHangup(listener),
    hearAudio(pcm) {
      meter.assistant(pcm);
      caller.hearAudio(line.toCaller(pcm));
    },
    onAudio(listener) {
      caller.onAudio((pcm) => {
        meter.caller(pcm);
        listener(line.toAssistant(pcm));
      });
    },
  };
}
