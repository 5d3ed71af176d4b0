import { systemClock } from "../clock/system-clock.ts";
import type { Utterance } from "../speech/speech-output.ts";
import type { SpeechPipeline } from "../speech/speech-pipeline.ts";
import { findPhrase } from "../text/phrases.ts";
import { PiiVault } from "../text/pii-vault.ts";
import { loadVad } from "../vad/load-vad.ts";
import type { VoiceActivityModel } from "../vad/voice-activity.ts";
import { type AssistantSideContext, createAssistantSide, createConversationSide } from "./assistant-side.ts";
import { createEmitter } from "./call-events.ts";
import type { CallSettings, VoicemailHandler } from "./call-settings.ts";
import { CallerSide } from "./caller-side.ts";
import type { Conversation } from "./conversation.ts";
import { FaultPolicy, type GiveUpReason, type GuardedStages } from "./fault-policy.ts";
import { MaxDuration } from "./max-duration.ts";
import { CallRecorder, type RecordingChannel, StreamingRecorder } from "./recorder.ts";
import { SilenceTimeout } from "./silence-timeout.ts";
import { SwitchableLlm, SwitchableTts } from "./switchable-stages.ts";
import { TurnMetricsTracker, TurnTimer } from "./turn-metrics.ts";
import type { CallerTurn } from "./turn-taking.ts";
import type {
  AssistantSwitch,
  CallEvent,
  CallSession,
  CallSessionOptions,
  CallSummary,
  Clock,
  EndReason,
  Handoffs,
} from "./types.ts";
import { VoicemailDetector } from "./voicemail.ts";
import type { WorkflowDirector } from "./workflow-director.ts";

/** What the session needs beyond its options; tests swap the detector for a deterministic one. */
export interface CallSessionDeps {
  loadVad: () => Promise<VoiceActivityModel>;
}

interface EndOptions {
  /** Silence the assistant at once instead of letting it finish. */
  cut?: boolean;
  /** Said (uninterruptibly) before hanging up. */
  farewell?: string;
  /** Runs after the farewell, before the end event. */
  beforeEnd?: () => void;
}

/**
 * How far before the detected start of speech a redacted caller turn is silenced from: the voice
 * detector needs some speech before it says so, and the recogniser gives no word timings.
 */
const SPEECH_ONSET_SAMPLES = 8_000;

/** The longest an ending waits for speech to finish before hanging up regardless. */
const END_SPEECH_LIMIT_MS = 60_000;

/** Opens a live call: wires caller audio, turn-taking, the model loop, speech out and the behaviours. */
export function createCallSession(options: CallSessionOptions): CallSession {
  return new LiveCall(options, { loadVad });
}

/** `createCallSession` with its dependencies given (tests, benchmarks). */
export function createCallSessionWith(options: CallSessionOptions, deps: CallSessionDeps): CallSession {
  return new LiveCall(options, deps);
}

class LiveCall implements CallSession {
  readonly done: Promise<CallSummary>;
  private resolveDone!: (summary: CallSummary) => void;
  /** The current assistant's settings; call-wide behaviours (silence, duration, voicemail, recording) keep the first's. */
  private settings: CallSettings;
  private readonly clock: Clock;
  private readonly emit: (event: CallEvent) => void;
  private readonly listeners: ((pcm: Int16Array) => void)[] = [];
  private readonly speech: SpeechPipeline;
  private conversation: Conversation;
  private workflow: WorkflowDirector | null;
  private readonly caller: CallerSide;
  private readonly silence: SilenceTimeout;
  private readonly maxDuration: MaxDuration;
  private readonly recorder: CallRecorder | StreamingRecorder | null;
  private voicemail: VoicemailDetector | null = null;
  private startedAt = 0;
  private started = false;
  private ended = false;
  private ending: Promise<void> | null = null;
  private voicemailMode = false;
  private state: "listening" | "thinking" | "speaking" | null = null;
  private turnCount = 0;
  private readonly metrics: TurnMetricsTracker;
  private readonly faults: FaultPolicy;
  private stages: GuardedStages;
  /** The model and voice the pipeline holds; a hand-off points them at the next assistant's. */
  private readonly llm: SwitchableLlm;
  private readonly tts: SwitchableTts;
  /** What the assistant side was built from; a hand-off rebuilds the conversation from it. */
  private readonly side: AssistantSideContext;
  /** A hand-off is under way: caller turns wait for the next assistant. */
  private switching = false;
  /** The running assistant's hand-offs (a squad member's); a hand-off replaces them with the next one's. */
  private handoffs: Handoffs | undefined;
  private readonly heldTurns: { text: string; timer: TurnTimer }[] = [];
  /** The recogniser could not be opened: the fault policy ends the call once it has started. */
  private sttFailure: Error | null = null;
  /** The call's placeholders for personal data (PII redaction on), in memory for the call only. */
  private readonly pii: PiiVault | null;
  /** Where in the recording the caller's current turn and the assistant's current utterance began. */
  private callerTurnFrom: number | null = null;
  private utteranceFrom: number | null = null;

  constructor(
    options: CallSessionOptions,
    private readonly deps: CallSessionDeps,
  ) {
    this.settings = options.settings;
    const settings = this.settings;
    this.clock = options.clock ?? systemClock;
    const { piiRedaction } = settings;
    this.pii = piiRedaction.stored ? new PiiVault({ phoneRegion: piiRedaction.phoneRegion }) : null;
    this.emit = createEmitter(options.sink, settings.redactCardNumbers, this.pii);
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    const sink = options.recording;
    this.recorder = !settings.record ? null : sink ? new StreamingRecorder(sink) : new CallRecorder();
    this.metrics = new TurnMetricsTracker(
      () => this.clock.now(),
      (metrics) => this.emit({ type: "turn_metrics", metrics }),
    );
    this.faults = new FaultPolicy(settings.faults, {
      clock: this.clock,
      emit: this.emit,
      at: () => this.at(),
      sayRecovery: (text) => this.speech.output.say(text),
      replyOwed: () => this.replyOwed(),
      giveUp: (reason, farewell, transferTo) => this.giveUp(reason, farewell, transferTo),
    });
    const guarded = this.faults.guard(options);
    this.llm = new SwitchableLlm(guarded.llm);
    this.tts = new SwitchableTts(guarded.tts);
    this.stages = { ...guarded, llm: this.llm, tts: this.tts };
    this.side = {
      options,
      stages: this.stages,
      faults: this.faults,
      callKey: options.callId ?? crypto.randomUUID(),
      clock: this.clock,
      metrics: this.metrics,
      emit: this.emit,
      pii: this.pii,
      at: () => this.at(),
      onFrame: (pcm) => {
        this.recorder?.pushAssistant(pcm);
        for (const listener of this.listeners) listener(pcm);
      },
      onUtteranceStart: () => {
        this.utteranceFrom = this.recorder?.position(1) ?? null;
        this.refreshState();
      },
      // The caller's wait ends with the first frame they can hear, as it leaves for the transport.
      onUtteranceAudible: () => this.metrics.flush(this.clock.now()),
      onUtteranceDone: (u) => this.onUtteranceDone(u),
      isEnding: () => this.ending !== null,
      end: (reason, endOptions) => void this.end(reason, endOptions),
      switchTo: (change) => this.switchAssistant(change),
      handOff: (member, reason, message) => this.handOffFromWorkflow(member, reason, message),
    };
    this.handoffs = options.handoffs;
    ({
      speech: this.speech,
      conversation: this.conversation,
      workflow: this.workflow,
    } = createAssistantSide(this.side));
    this.caller = new CallerSide(
      this.clock,
      settings,
      {
        onSpeechStart: () => this.onCallerSpeechStart(),
        onPartial: (text) => this.emit({ type: "transcript", role: "user", text, final: false, atMs: this.at() }),
        onTurn: (turn) => this.onCallerTurn(turn),
        onFrame: (pcm) => this.voicemail?.onCallerFrame(pcm),
        onSttFailed: (provider, error) => this.faults.transcriberFailed(provider, error),
        onSttSilent: () => {
          if (!this.ending && !this.voicemailMode) this.speech.output.say(settings.faults.recoveryMessage);
        },
        onActivity: () => this.refreshState(),
      },
      { streamed: options.streamedCallerAudio },
    );
    const { silence, maxDuration } = settings;
    this.silence = new SilenceTimeout(
      this.clock,
      silence.seconds,
      silence.maxPrompts,
      () => this.conversation.speak(silence.prompt),
      () => void this.end("silence_timeout", { farewell: settings.endCall.goodbye }),
    );
    this.maxDuration = new MaxDuration(this.clock, maxDuration.seconds, maxDuration.warningShare);
  }

  async start(): Promise<void> {
    if (this.started || this.ended) return;
    this.startedAt = this.clock.now();
    try {
      this.sttFailure = await this.caller.open(this.deps.loadVad, this.stages.stt);
    } catch (error) {
      this.emit({ type: "error", message: `Call could not start: ${error instanceof Error ? error.message : error}` });
      await this.finish("error");
      throw error;
    }
    this.started = true;
    this.speech.playout.start();
    if (this.sttFailure) {
      // Nobody can be heard: the caller is told and the call ends (or is handed on).
      this.faults.transcriberFailed(this.stages.stt.id, this.sttFailure);
      this.refreshState();
      return;
    }
    this.startBehaviours();
    // A workflow opens with its start node's greeting instead of the assistant's first message.
    const firstMessage = this.workflow ? this.workflow.greeting() : this.settings.firstMessage;
    if (firstMessage) this.conversation.speak(firstMessage);
    this.refreshState();
  }

  pushAudio(pcm: Int16Array): void {
    if (!this.started || this.ended) return;
    this.recorder?.pushCaller(pcm);
    this.caller.push(pcm);
  }

  pushDtmf(digit: string): void {
    if (!this.started || this.ended) return;
    this.emit({ type: "dtmf_in", digit, atMs: this.at() });
    const mapping = this.settings.dtmfMapping;
    if (!mapping || this.ending || this.voicemailMode) return;
    const text = mapping[digit] ?? `The caller pressed ${digit}`;
    this.respond(text, new TurnTimer(++this.turnCount, this.clock.now()));
  }

  pushText(text: string): void {
    const trimmed = text.trim();
    if (!this.started || this.ended || !trimmed) return;
    this.emit({ type: "transcript", role: "user", text: trimmed, final: true, atMs: this.at() });
    this.callerSaid(trimmed, new TurnTimer(++this.turnCount, this.clock.now()), false);
  }

  onAudio(listener: (pcm: Int16Array) => void): void {
    this.listeners.push(listener);
  }

  hangup(reason: EndReason): Promise<void> {
    return this.end(reason, { cut: true });
  }

  async switchAssistant(change: AssistantSwitch): Promise<void> {
    if (!this.started || this.ending || this.switching) return;
    this.switching = true;
    try {
      // The turn boundary: what the handing-off assistant is saying is finished first.
      await this.speech.output.idle();
      if (this.ending) return;
      const { next } = change;
      const guarded = this.faults.guard({ ...next, stt: next.stt ?? this.stages.stt });
      if (next.stt) await this.replaceRecogniser(guarded.stt);
      this.llm.use(guarded.llm);
      this.tts.use(guarded.tts);
      this.workflow?.close();
      this.settings = next.settings;
      this.handoffs = next.handoffs;
      ({ conversation: this.conversation, workflow: this.workflow } = createConversationSide(
        // Every part is the next assistant's: what it does not have (a workflow, tools) it does not run.
        {
          ...this.side,
          options: {
            ...this.side.options,
            ...next,
            tools: next.tools,
            context: next.context,
            workflow: next.workflow,
            handoffs: next.handoffs,
          },
        },
        this.speech.output,
      ));
      this.conversation.messages.push(...change.history);
      this.emit({ type: "handoff", from: change.from, to: change.to, reason: change.reason, atMs: this.at() });
    } finally {
      this.switching = false;
    }
    if (!this.ending) this.answerAfterHandoff();
  }

  /** A recogniser that cannot be opened leaves the one listening in place: the caller is still heard. */
  private async replaceRecogniser(stt: GuardedStages["stt"]): Promise<void> {
    try {
      await this.caller.replaceRecogniser(stt);
      this.stages = { ...this.stages, stt };
    } catch (error) {
      this.emit({
        type: "error",
        message: `The next assistant's transcriber could not be opened; the call keeps the current one: ${error instanceof Error ? error.message : error}`,
      });
    }
  }

  /**
   * A workflow's hand-off node: the same hand-off its tool would ask for (the squad must allow it),
   * with the node's message as the bridge line when it has one. One that cannot happen is logged and
   * the current assistant keeps the call.
   */
  private handOffFromWorkflow(member: string, reason: string, message: string): void {
    const failed = (why: string) =>
      this.emit({ type: "error", message: `The workflow's hand-off to "${member}" did not happen: ${why}` });
    const handoffs = this.handoffs;
    if (!handoffs?.targets.some((target) => target.name === member)) {
      failed("the call's squad has no such hand-off from this assistant.");
      return;
    }
    const answer = handoffs.request(member, reason, this.conversation.messages);
    if ("refused" in answer) {
      failed(answer.refused);
      return;
    }
    const line = message || answer.bridgeLine;
    if (line) this.conversation.speak(line, { interruptible: false });
    void answer.next.then(
      (change) => this.switchAssistant(change),
      (error: unknown) => failed(error instanceof Error ? error.message : String(error)),
    );
  }

  /**
   * The assistant that took the call over speaks: to what the caller said meanwhile, else from the
   * context. Its first reply is a turn of its own, timed from the switch: the caller's wait for the
   * next voice shows in the turn's figures.
   */
  private answerAfterHandoff(): void {
    const held = this.heldTurns.splice(0);
    const first = held[0];
    if (first) this.respond(held.map((turn) => turn.text).join(" "), first.timer);
    else this.respond(null, new TurnTimer(++this.turnCount, this.clock.now()));
  }

  // ── wiring ────────────────────────────────────────────────────────────────

  private startBehaviours(): void {
    const { maxDuration, voicemail } = this.settings;
    this.maxDuration.start(
      () => {
        if (!this.ending && maxDuration.warningMessage) this.conversation.speak(maxDuration.warningMessage);
      },
      () => void this.end("max_duration", { cut: true }),
    );
    if (!voicemail) return;
    this.voicemail = new VoicemailDetector(this.clock, this.startedAt, {
      onDetected: () => this.onVoicemail(voicemail.handler),
      onReadyForMessage: () => {
        if (voicemail.handler === "leave_message") void this.end("voicemail", { farewell: voicemail.message });
      },
    });
  }

  // ── caller side ───────────────────────────────────────────────────────────

  private onCallerSpeechStart(): void {
    this.callerTurnFrom ??= this.recorder?.position(0) ?? null;
    if (this.ending || this.voicemailMode) return;
    this.silence.disarm();
    this.bargeIn();
  }

  private onCallerTurn(turn: CallerTurn): void {
    if (this.ended) return;
    this.silenceIfPersonal(0, this.callerTurnFrom, turn.text, SPEECH_ONSET_SAMPLES);
    this.callerTurnFrom = null;
    this.emit({ type: "transcript", role: "user", text: turn.text, final: true, atMs: this.at() });
    this.callerSaid(turn.text, new TurnTimer(++this.turnCount, turn), true);
  }

  private callerSaid(text: string, timer: TurnTimer, spoken: boolean): void {
    if (this.ending || this.voicemailMode) return;
    if (spoken && this.voicemail?.onCallerTurn(text)) return;
    const { endCall } = this.settings;
    if (findPhrase(text, endCall.phrases)) {
      void this.end("end_phrase", { cut: true, farewell: endCall.goodbye });
      return;
    }
    this.respond(text, timer);
  }

  /** Answers a caller turn; null: the assistant that just took the call over answers from its context. */
  private respond(text: string | null, timer: TurnTimer): void {
    if (this.switching && text !== null) {
      // The next assistant answers it once it has taken over.
      this.heldTurns.push({ text, timer });
      return;
    }
    this.silence.answered();
    this.bargeIn();
    this.metrics.begin(timer);
    this.faults.newTurn(timer.startedAt);
    const reply = this.conversation.respond(text);
    this.refreshState();
    void reply.then(() => {
      if (this.metrics.isActive(timer) && !this.speech.output.active) this.metrics.flush(null);
      this.refreshState();
    });
  }

  /** Cuts the assistant short (caller speech, a key press or typed text while it talks). */
  private bargeIn(): void {
    if (this.switching) return;
    const output = this.speech.output;
    if (!this.conversation.busy && !output.active) return;
    if (!output.interruptible) return;
    this.conversation.cancel();
    const cut = output.interrupt();
    const heard = cut.find((u) => u.heardText)?.heardText ?? "";
    this.emit({ type: "interruption", heardText: heard, atMs: this.at() });
    this.refreshState();
  }

  private onVoicemail(handler: VoicemailHandler): void {
    if (handler === "hangup") {
      void this.end("voicemail", { cut: true });
      return;
    }
    this.voicemailMode = true;
    this.silence.disarm();
    this.conversation.cancel();
    if (this.speech.output.active) this.speech.output.interrupt();
  }

  // ── assistant side ────────────────────────────────────────────────────────

  private onUtteranceDone(u: Utterance): void {
    // A reply that ended without a frame worth hearing still closes its turn's figures (no audio).
    if (!this.conversation.busy && !this.speech.output.active) this.metrics.flush(null);
    const text = u.interrupted ? (u.heardText ?? "") : u.text.trim();
    this.silenceIfPersonal(1, this.utteranceFrom, u.text, 0);
    this.utteranceFrom = null;
    if (text) this.emit({ type: "transcript", role: "assistant", text, final: true, atMs: this.at() });
    this.refreshState();
  }

  /**
   * With PII redaction, speech whose words hold personal data is silenced in the recording: the
   * whole caller turn or assistant utterance, from `from` (less `lead`) to now, as the recogniser
   * gives no word timings.
   */
  private silenceIfPersonal(channel: RecordingChannel, from: number | null, text: string, lead: number): void {
    if (!this.pii || !this.recorder || from === null || !this.pii.holdsPii(text)) return;
    this.recorder.silence(channel, Math.max(0, from - lead), this.recorder.position(channel));
  }

  private refreshState(): void {
    if (this.ended || !this.started) return;
    const output = this.speech.output;
    const next = output.speaking ? "speaking" : this.conversation.busy || output.active ? "thinking" : "listening";
    if (next !== this.state) {
      this.state = next;
      this.emit({ type: "state", state: next });
    }
    const quiet = next === "listening" && !this.caller.speaking && !this.ending && !this.voicemailMode;
    if (quiet) this.silence.arm();
    else this.silence.disarm();
    this.faults.quiet(this.replyOwed());
  }

  /** The assistant owes the caller a reply (the model or a tool is working) and nothing is being said. */
  private replyOwed(): boolean {
    return (
      this.started &&
      !this.ended &&
      !this.ending &&
      !this.voicemailMode &&
      this.conversation.busy &&
      !this.speech.output.active
    );
  }

  // ── ending ────────────────────────────────────────────────────────────────

  /**
   * The fault policy gave up: the goodbye is said (the voice chain and its last resort permitting),
   * the caller is handed to the fallback number when there is one, and the call ends on the
   * failing stage's reason.
   */
  private giveUp(reason: GiveUpReason, farewell: string, transferTo: string | null): void {
    const transfer = transferTo
      ? () => this.emit({ type: "transfer", destination: { name: "fallback", number: transferTo }, atMs: this.at() })
      : undefined;
    // Not cut: the recovery line being said is finished, then the goodbye.
    void this.end(reason, { farewell, beforeEnd: transfer });
  }

  private end(reason: EndReason, options: EndOptions = {}): Promise<void> {
    this.ending ??= this.runEnd(reason, options);
    return this.ending;
  }

  private async runEnd(reason: EndReason, options: EndOptions): Promise<void> {
    this.faults.stop();
    this.silence.disarm();
    this.maxDuration.stop();
    this.caller.stop();
    this.voicemail?.stop();
    this.conversation.cancel();
    if (!this.started) return this.finish(reason);
    if (options.cut && this.speech.output.active) this.speech.output.interrupt();
    const speech = options.farewell
      ? this.conversation.speak(options.farewell, { interruptible: false }).done
      : this.speech.output.idle();
    let limit: unknown = null;
    await Promise.race([speech, new Promise<void>((r) => (limit = this.clock.setTimeout(r, END_SPEECH_LIMIT_MS)))]);
    this.clock.clearTimeout(limit);
    options.beforeEnd?.();
    await this.finish(reason);
  }

  private async finish(reason: EndReason): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.faults.stop();
    this.workflow?.close();
    this.speech.playout.stop();
    this.silence.disarm();
    this.maxDuration.stop();
    this.voicemail?.stop();
    await this.caller.close();
    const durationMs = Math.round(this.clock.now() - this.startedAt);
    this.emit({ type: "end", reason, atMs: durationMs });
    this.resolveDone({ reason, durationMs, faults: [...this.faults.faults], recording: this.recording() });
  }

  /** The in-memory recording as a WAV; a streamed one is flushed to its sink and not returned. */
  private recording(): Buffer | null {
    if (this.recorder instanceof CallRecorder) return this.recorder.toWav();
    this.recorder?.finish();
    return null;
  }

  private at(): number {
    return Math.round(this.clock.now() - this.startedAt);
  }
}
