import { Assistant, AssistantFields } from "@parley/contract";
import { decodeWav } from "../src/audio/wav.ts";
import type { LlmProvider, TtsProvider } from "../src/providers/types.ts";
import { createCallSessionWith } from "../src/session/call-session.ts";
import { type CallSettings, callSettingsOf } from "../src/session/call-settings.ts";
import type { CallEvent, CallSession, CallSessionOptions, CallSummary, ToolRunner } from "../src/session/types.ts";
import { EnergyVad } from "../src/vad/voice-activity.ts";
import type { WorkflowDefinition, WorkflowEffects } from "../src/workflow/types.ts";
import { WorkflowRunner } from "../src/workflow/workflow-runner.ts";
import { FakeTts, ScriptedLlm, type ScriptedReply, ScriptedStt } from "./fake-providers.ts";
import { noise, silence } from "./signals.ts";
import { VirtualClock } from "./virtual-clock.ts";

export type AssistantOverrides = Partial<Omit<Assistant, "id" | "created_at" | "updated_at">>;

/** A complete assistant with the contract's defaults, changed by `overrides`. */
export function testAssistant(overrides: AssistantOverrides = {}): Assistant {
  const fields = AssistantFields.parse({ name: "Test assistant", first_message: "Hi there.", ...overrides });
  return Assistant.parse({
    ...fields,
    ...overrides,
    id: "assistant-1",
    temp: false,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  });
}

export interface CallHarnessOptions {
  assistant?: AssistantOverrides;
  /** Settings that come from outside the assistant (the workspace's PII redaction). */
  settings?: Partial<CallSettings>;
  /** Lines the fake recogniser hears, one per caller utterance. */
  heard?: string[];
  replies?: ScriptedReply[];
  /** Reply when the script runs out. */
  fallbackReply?: ScriptedReply;
  tools?: ToolRunner;
  msPerWord?: number;
  llmTokenDelayMs?: number;
  /** Puts the scripted model behind another provider (e.g. a fallback chain) for the call. */
  wrapLlm?: (scripted: ScriptedLlm) => LlmProvider;
  /** Puts the fake voice behind another provider for the call. */
  wrapTts?: (fake: FakeTts) => TtsProvider;
  /** Backups the fault policy falls back to, after the (wrapped) model and voice. */
  fallbacks?: CallSessionOptions["fallbacks"];
  /** A workflow the call runs, on the scripted model. */
  workflow?: { definition: WorkflowDefinition; effects?: WorkflowEffects };
  /** The assistants the call may be handed to (a squad member's hand-offs). */
  handoffs?: CallSessionOptions["handoffs"];
}

const NO_EFFECTS: WorkflowEffects = {
  runTool: async () => ({ name: "tool", ok: false, content: "No tools in this test." }),
  searchKnowledge: async () => ({ name: "search_knowledge", ok: false, content: "No knowledge in this test." }),
};

/**
 * One call on a virtual clock with scripted providers and a level-based VAD: tests speak (loud
 * noise), pause, type and press keys, and read the events and audio that came out.
 */
export class CallHarness {
  readonly clock = new VirtualClock();
  readonly events: CallEvent[] = [];
  readonly audio: Int16Array[] = [];
  readonly stt: ScriptedStt;
  readonly llm: ScriptedLlm;
  readonly tts: FakeTts;
  readonly session: CallSession;
  readonly workflow: WorkflowRunner | undefined;
  summary: CallSummary | null = null;

  constructor(options: CallHarnessOptions = {}) {
    this.stt = new ScriptedStt(options.heard ?? []);
    this.llm = new ScriptedLlm(options.replies ?? [], {
      fallback: options.fallbackReply ?? "Okay.",
      clock: this.clock,
      tokenDelayMs: options.llmTokenDelayMs,
    });
    this.tts = new FakeTts({ msPerWord: options.msPerWord ?? 100 });
    const flow = options.workflow;
    this.workflow = flow
      ? new WorkflowRunner(flow.definition, { llm: this.llm, effects: flow.effects ?? NO_EFFECTS, today: "2026-03-02" })
      : undefined;
    this.session = createCallSessionWith(
      {
        settings: { ...callSettingsOf(testAssistant(options.assistant)), ...options.settings },
        stt: this.stt,
        llm: options.wrapLlm ? options.wrapLlm(this.llm) : this.llm,
        tts: options.wrapTts ? options.wrapTts(this.tts) : this.tts,
        fallbacks: options.fallbacks,
        tools: options.tools,
        sink: { onEvent: (event) => this.events.push(event) },
        clock: this.clock,
        workflow: this.workflow,
        handoffs: options.handoffs,
      },
      { loadVad: async () => new EnergyVad() },
    );
    this.session.onAudio((pcm) => this.audio.push(pcm));
    void this.session.done.then((summary) => {
      this.summary = summary;
    });
  }

  async start(): Promise<void> {
    await this.session.start();
    await this.clock.advance(0);
  }

  /** The caller talks (loud noise) for `ms`, then is silent long enough for the turn to end. */
  async say(ms = 600, thenSilentMs = 900): Promise<void> {
    await this.feed(noise(ms, 16_000, 0.3, this.events.length + 1));
    await this.feed(silence(thenSilentMs));
  }

  /** Caller audio in real time, 20 ms at a time. */
  async feed(pcm: Int16Array): Promise<void> {
    for (let i = 0; i < pcm.length; i += 320) {
      this.session.pushAudio(pcm.subarray(i, i + 320));
      await this.clock.advance(20);
    }
  }

  async wait(ms: number): Promise<void> {
    await this.clock.advance(ms);
  }

  /** Runs the clock until the call has ended. */
  async untilEnded(maxMs = 600_000): Promise<CallSummary> {
    await this.clock.until(() => this.summary !== null, maxMs, 100);
    return this.summary as CallSummary;
  }

  /** Runs the clock until the assistant is quiet and listening. */
  async untilListening(maxMs = 60_000): Promise<void> {
    await this.clock.until(() => this.lastState() === "listening" && this.speaking() === false, maxMs);
  }

  of<T extends CallEvent["type"]>(type: T): Extract<CallEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<CallEvent, { type: T }> => e.type === type);
  }

  /** Final transcript lines as "role: text". */
  transcript(): string[] {
    return this.of("transcript")
      .filter((e) => e.final)
      .map((e) => `${e.role}: ${e.text}`);
  }

  lastState(): string | undefined {
    return this.of("state").at(-1)?.state;
  }

  /** True when the last frame out carried speech. */
  speaking(): boolean {
    return this.audio.at(-1)?.some((s) => s !== 0) ?? false;
  }

  /** The recording's two channels, when there is one. */
  recordingChannels(): Int16Array[] | null {
    return this.summary?.recording ? decodeWav(this.summary.recording).channels : null;
  }
}
