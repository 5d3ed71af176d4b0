import { CallerBehaviours } from "@parley/contract";
import { FakeTts } from "../../../testing/fake-providers.ts";
import { VirtualClock } from "../../../testing/virtual-clock.ts";
import type { LlmProvider, TtsProvider } from "../../providers/types.ts";
import { createSimulatedCaller } from "../simulated-caller.ts";
import type { CallerPlan, CallerReport, SimulatedCaller } from "../types.ts";
import { FakeAssistant, type FakeAssistantOptions } from "./fake-assistant.ts";

export interface CallSetup {
  plan?: Partial<Omit<CallerPlan, "behaviours">> & { behaviours?: Partial<CallerBehaviours> };
  assistant?: FakeAssistantOptions;
  assistantSpeaksFirst?: boolean;
  llm?: LlmProvider | null;
  tts?: TtsProvider;
  /** The call's clock, when a double needs it before the call starts. */
  clock?: VirtualClock;
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
  const assistant = new FakeAssistant(clock, caller, setup.assistant);
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
