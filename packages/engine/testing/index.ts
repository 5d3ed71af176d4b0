/** Test doubles for code that drives the engine: a virtual clock, scripted providers, a call harness. */
export { CallHarness, type CallHarnessOptions, testAssistant } from "./call-harness.ts";
export { FakeTts, ScriptedLlm, type ScriptedReply, ScriptedStt, toolCall } from "./fake-providers.ts";
export { FrameHarness, flushAsync } from "./frame-harness.ts";
export { noise, silence, sine } from "./signals.ts";
export { VirtualClock } from "./virtual-clock.ts";
