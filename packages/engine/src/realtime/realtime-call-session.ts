import { systemClock } from "../clock/system-clock.ts";
import { faultKind, faultMessage } from "../providers/fault-kind.ts";
import type { ProviderError } from "../providers/provider-error.ts";
import type { RealtimeUsage } from "../providers/shared/realtime-usage.ts";
import type { SpeechModelClient, ToolOutcome } from "../providers/shared/speech-model-client.ts";
import type { NetworkDeps, ToolCall } from "../providers/types.ts";
import { runBuiltInTool } from "../session/built-in-tools.ts";
import { createEmitter } from "../session/call-events.ts";
import type { CallSettings } from "../session/call-settings.ts";
import { MaxDuration } from "../session/max-duration.ts";
import { CallRecorder, type RecordingSink, StreamingRecorder } from "../session/recorder.ts";
import { SilenceTimeout } from "../session/silence-timeout.ts";
import type {
  AssistantSwitch,
  CallEvent,
  CallFault,
  CallSession,
  CallSink,
  CallSummary,
  Clock,
  EndReason,
  Handoffs,
  ToolRunner,
} from "../session/types.ts";
import { PiiVault } from "../text/pii-vault.ts";
import type { WorkflowRunner } from "../workflow/workflow-runner.ts";
import { PacedPlayout } from "./paced-playout.ts";
import { PersonalSpeechSilencer } from "./personal-speech.ts";
import { RealtimeAssistant } from "./realtime-assistant.ts";
import { ReplyGate } from "./reply-gate.ts";
import { createSpeechModelClient } from "./speech-model-clients.ts";
import type { RealtimeModelSettings } from "./speech-model-settings.ts";

/** The longest a farewell may take before the call ends regardless (a model that says nothing). */
const FAREWELL_LIMIT_MS = 30_000;
/** Gemini Live has no message that asks for a reply: a text turn asks the assistant that took over to speak. */
const CARRY_ON = "Continue the conversation with the caller.";

export type {
  GeminiLiveModelSettings,
  OpenAiRealtimeModelSettings,
  RealtimeModelSettings,
} from "./speech-model-settings.ts";

export interface RealtimeCallSessionOptions {
  /** The assistant's settings: its prompt, first message, key mapping and PCI redaction are used. */
  settings: CallSettings;
  realtime: RealtimeModelSettings;
  apiKey: string;
  net: NetworkDeps;
  /** A test server's origin instead of the vendor's. */
  baseUrl?: string;
  /** Unique per call: tool calls' idempotency keys start with it. */
  callId?: string;
  tools?: ToolRunner;
  sink: CallSink;
  clock?: Clock;
  /** Extra system-prompt context (caller number, channel, …). */
  context?: string;
  /** Where the recording streams as the call runs; without one it is held and returned in the summary. */
  recording?: RecordingSink;
  /**
   * The assistant's published workflow: its start node's greeting replaces the first message, it
   * advances on each final caller transcript, and its step's prompt goes to the model by `update`.
   */
  workflow?: WorkflowRunner;
  /** The squad members this assistant may hand the call to (`handoff_to_<name>` tools). */
  handoffs?: Handoffs;
}

/**
 * A call answered by a speech-to-speech model instead of the transcriber → model → voice pipeline:
 * the caller's audio goes straight to the model (`options.realtime.provider` picks the vendor's
 * client), whose own turn detection answers; its audio is paced out in 20 ms frames, a caller
 * speaking over it stops the playout and the model keeps only what was played (truncated by the
 * client, or by the vendor itself), and its transcription events, function calls and faults
 * become the call's events.
 */
export class RealtimeCallSession implements CallSession {
  readonly done: Promise<CallSummary>;
  private resolveDone!: (summary: CallSummary) => void;
  private readonly clock: Clock;
  private readonly emit: (event: CallEvent) => void;
  private readonly playout: PacedPlayout;
  private readonly client: SpeechModelClient;
  private readonly faults: CallFault[] = [];
  private readonly maxDuration: MaxDuration;
  /** The caller's silence once the assistant has finished: the model is asked to prompt, then to say goodbye. */
  private readonly silence: SilenceTimeout;
  private callerSpeaking = false;
  /** Both sides as the caller heard them (assistant frames as played); null when the assistant does not record. */
  private readonly recorder: CallRecorder | StreamingRecorder | null;
  /** With PII redaction: silences the recording's turns and items whose words held personal data. */
  private readonly personal: PersonalSpeechSilencer | null;
  /** Where the frame being played starts on the recording's assistant side. */
  private frameFrom = 0;
  /** Samples received per assistant item (16 kHz), to place the heard part of its transcript. */
  private readonly received = new Map<string, number>();
  /** Null until the call starts: a workflow's start node entered before then is at 0 ms. */
  private startedAt: number | null = null;
  /** Who the model is talking as: prompt, tools, workflow and hand-offs (a hand-off replaces them). */
  private readonly assistant: RealtimeAssistant;
  /** Lines the engine asks the model for wait until its own reply is over. */
  private readonly gate: ReplyGate;
  /** With PII kept from the model: masks what the workflow's text requests are given. */
  private readonly modelVault: PiiVault | null;
  private ended = false;
  private speaking = false;
  private toolCount = 0;
  /** The caller's turn waiting for its answer's first frame: when they stopped and which item answers. */
  private turn: { number: number; stoppedAt: number; itemId: string | null; firstAudioAt: number | null } | null = null;
  private turns = 0;
  /**
   * The call ends once this is said (end_call, transfer_call): the model's next item is the
   * farewell; `spoken` once all its audio came, and the call ends when the playout has drained.
   */
  private farewell: {
    reason: EndReason;
    text: string;
    beforeEnd?: () => void;
    itemId: string | null;
    spoken: boolean;
    /** The model has been asked to say it (a workflow's farewell waits for the reply under way). */
    asked: boolean;
    timer: unknown;
  } | null = null;

  constructor(private readonly options: RealtimeCallSessionOptions) {
    this.clock = options.clock ?? systemClock;
    // PII redaction masks every event as in the pipeline; the model hears the caller's audio itself,
    // so masking its input is not possible here (docs/privacy.md).
    const { piiRedaction } = options.settings;
    const pii = piiRedaction.stored ? new PiiVault({ phoneRegion: piiRedaction.phoneRegion }) : null;
    this.emit = createEmitter(options.sink, options.settings.redactCardNumbers, pii);
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    const recording = options.recording;
    this.recorder = !options.settings.record ? null : recording ? new StreamingRecorder(recording) : new CallRecorder();
    this.personal = pii && this.recorder ? new PersonalSpeechSilencer(pii, this.recorder) : null;
    // The workflow's and a hand-off's requests go to another model (the pipeline's): masked as there.
    this.modelVault = piiRedaction.model ? (pii ?? new PiiVault({ phoneRegion: piiRedaction.phoneRegion })) : null;
    const { silence, endCall } = options.settings;
    this.silence = new SilenceTimeout(
      this.clock,
      silence.seconds,
      silence.maxPrompts,
      () => this.client.respond(`Say exactly: "${silence.prompt}"`),
      () => {
        this.endAfterFarewell("silence_timeout", endCall.goodbye);
        if (endCall.goodbye) this.client.respond(`Say exactly: "${endCall.goodbye}"`);
      },
    );
    const limit = options.settings.maxDuration;
    this.maxDuration = new MaxDuration(this.clock, limit.seconds, limit.warningShare);
    this.playout = new PacedPlayout(
      this.clock,
      () => {
        this.setSpeaking(false);
        this.finishFarewell();
        if (!this.callerSpeaking && !this.farewell) this.silence.arm();
      },
      (itemId) => this.framePlayed(itemId),
    );
    this.playout.onFrame((pcm) => {
      this.frameFrom = this.recorder?.position(1) ?? 0;
      this.recorder?.pushAssistant(pcm);
    });
    this.gate = new ReplyGate(this.clock);
    this.assistant = this.createAssistant();
    this.client = createSpeechModelClient(options.realtime, this.assistant.prompt(), {
      apiKey: options.apiKey,
      net: options.net,
      baseUrl: options.baseUrl,
      now: () => this.clock.now(),
      runTool: (call, signal) => this.runTool(call, signal),
      sink: {
        onCallerStarted: () => {
          this.callerSpeaking = true;
          this.personal?.callerStarted();
          this.silence.disarm();
        },
        onResponseStarted: () => {
          this.gate.started();
          this.silence.disarm();
        },
        onCallerStopped: (timed) => {
          this.callerSpeaking = false;
          // Latency is measured only from a vendor's own end-of-speech signal, never from the reply's start.
          if (!timed) return;
          this.turn = { number: ++this.turns, stoppedAt: this.clock.now(), itemId: null, firstAudioAt: null };
        },
        onAudio: (itemId, pcm) => {
          if (this.turn && this.turn.itemId === null && !this.received.has(itemId)) {
            this.turn.itemId = itemId;
            this.turn.firstAudioAt = this.clock.now();
          }
          const farewell = this.farewell;
          if (farewell?.asked && farewell.itemId === null && !this.received.has(itemId)) farewell.itemId = itemId;
          this.gate.audio(itemId);
          this.received.set(itemId, (this.received.get(itemId) ?? 0) + pcm.length);
          this.setSpeaking(true);
          this.playout.push(itemId, pcm);
        },
        onAudioDone: (itemId) => {
          this.gate.done(itemId);
          if (this.farewell?.itemId !== itemId) return;
          this.farewell.spoken = true;
          this.finishFarewell();
        },
        onInterrupted: (itemId) => {
          const heard = this.playout.playedMs(itemId);
          this.gate.done(itemId);
          this.playout.stop();
          this.setSpeaking(false);
          return heard;
        },
        onTruncated: (itemId, audioEndMs, transcript) => {
          const receivedMs = ((this.received.get(itemId) ?? 0) * 1000) / 16_000;
          this.emit({
            type: "interruption",
            heardText: heardPart(transcript, audioEndMs, receivedMs),
            atMs: this.at(),
          });
        },
        onTranscript: (role, text, final, itemId) => {
          if (role === "user" && final) this.silence.answered();
          if (final && role === "user") {
            this.personal?.callerSaid(text);
            this.assistant.callerSaid(text);
          }
          if (final && role === "assistant") {
            this.personal?.assistantSaid(itemId, text);
            this.assistant.assistantSaid(text);
          }
          if (text) this.emit({ type: "transcript", role, text, final, atMs: this.at() });
        },
        onToolCall: (call, result, durationMs) =>
          this.emit({
            type: "tool_call",
            name: call.name,
            arguments: call.arguments,
            result: result.content,
            ok: result.ok,
            durationMs,
            atMs: this.at(),
          }),
        onFault: (error, fatal) => this.fault(error, fatal),
      },
    });
  }

  /** The model's tokens by modality so far, for metering at the vendor's prices. */
  get usage(): RealtimeUsage {
    return this.client.totals;
  }

  async start(): Promise<void> {
    this.startedAt = this.clock.now();
    this.emit({ type: "state", state: "listening" });
    try {
      await this.client.connect();
    } catch (error) {
      this.fault(error as ProviderError, true);
      return;
    }
    const limit = this.options.settings.maxDuration;
    // The warning is the model's to say (there is no voice of the engine's own on this call).
    this.maxDuration.start(
      () => {
        if (limit.warningMessage) this.client.respond(`Say exactly: "${limit.warningMessage}"`);
      },
      () => this.end("max_duration"),
    );
    const first = this.assistant.opening;
    if (!first) this.silence.arm();
    if (first) this.client.respond(`Greet the caller by saying exactly: "${first}"`);
  }

  pushAudio(pcm: Int16Array): void {
    if (this.ended) return;
    this.recorder?.pushCaller(pcm);
    this.client.appendAudio(pcm);
  }

  pushDtmf(digit: string): void {
    if (this.ended) return;
    this.emit({ type: "dtmf_in", digit, atMs: this.at() });
    const meaning = this.assistant.settings.dtmfMapping?.[digit];
    if (!meaning) return;
    this.client.sendText(`The caller pressed ${digit}: ${meaning}`);
    this.assistant.callerSaid(meaning);
  }

  pushText(text: string): void {
    if (this.ended) return;
    this.silence.answered();
    this.emit({ type: "transcript", role: "user", text, final: true, atMs: this.at() });
    this.client.sendText(text);
    this.assistant.callerSaid(text);
  }

  onAudio(listener: (pcm: Int16Array) => void): void {
    this.playout.onFrame(listener);
  }

  /**
   * The next assistant's prompt, tools, workflow and hand-offs take over the same model session
   * (its voice stays; the model has heard the whole conversation, so `change.history` is not resent).
   */
  async switchAssistant(change: AssistantSwitch): Promise<void> {
    if (this.ended) return;
    this.assistant.switchTo(change.next);
    this.emit({ type: "handoff", from: change.from, to: change.to, reason: change.reason, atMs: this.at() });
  }

  async hangup(reason: EndReason): Promise<void> {
    this.end(reason);
    await this.done;
  }

  private end(reason: EndReason): void {
    if (this.ended) return;
    this.ended = true;
    if (this.farewell) this.clock.clearTimeout(this.farewell.timer);
    this.maxDuration.stop();
    this.silence.disarm();
    this.gate.close();
    this.assistant.close();
    this.playout.stop();
    this.client.close();
    const atMs = this.at();
    this.emit({ type: "end", reason, atMs });
    let wav: Buffer | null = null;
    if (this.recorder instanceof CallRecorder) wav = this.recorder.toWav();
    else this.recorder?.finish();
    this.resolveDone({ reason, faults: [...this.faults], durationMs: atMs, recording: wav });
  }

  private async runTool(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    this.gate.calledTools();
    if (this.assistant.isHandoff(call.name)) return this.assistant.handOff(call);
    const settings = this.assistant.settings;
    const builtIn = runBuiltInTool(settings, call, {
      endCall: () => this.endAfterFarewell("assistant_ended", settings.endCall.goodbye),
      transfer: (destination) =>
        this.endAfterFarewell("transferred", destination.transfer_message, () =>
          this.emit({
            type: "transfer",
            destination: { name: destination.name, number: destination.number },
            atMs: this.at(),
          }),
        ),
      sendDtmf: (digits) => this.emit({ type: "dtmf_out", digits, atMs: this.at() }),
    });
    if (builtIn) {
      const text = this.farewell?.text;
      const followUp = !builtIn.stop ? undefined : text ? { instructions: `Say exactly: "${text}"` } : "none";
      return { ok: builtIn.result.ok, content: builtIn.result.content, followUp };
    }
    const tools = this.assistant.tools;
    if (!tools) return { ok: false, content: `No function named ${call.name} is available.` };
    const idempotencyKey = `${this.options.callId ?? "call"}:${call.id}:${++this.toolCount}`;
    const result = await tools.run(call, { signal, idempotencyKey });
    return { ok: result.ok, content: result.content };
  }

  /** The call ends after the model says `text` (nothing to say: once what is playing has played). */
  private endAfterFarewell(reason: EndReason, text: string, beforeEnd?: () => void, asked = true): void {
    if (this.farewell || this.ended) return;
    const timer = this.clock.setTimeout(() => {
      if (this.farewell) this.farewell.spoken = true;
      this.playout.stop();
      this.finishFarewell();
    }, FAREWELL_LIMIT_MS);
    this.farewell = { reason, text, beforeEnd, itemId: null, spoken: text === "", asked, timer };
    this.finishFarewell();
  }

  private finishFarewell(): void {
    const farewell = this.farewell;
    if (!farewell?.spoken || this.playout.playing) return;
    this.farewell = null;
    this.clock.clearTimeout(farewell.timer);
    farewell.beforeEnd?.();
    this.end(farewell.reason);
  }

  /** A vendor error event is logged and the call goes on; a lost connection ends it. */
  private fault(error: ProviderError, fatal: boolean): void {
    if (this.ended) return;
    const fault: CallFault = {
      stage: "llm",
      provider: this.client.provider,
      kind: faultKind(error),
      action: fatal ? "gave_up" : "skipped",
      error: faultMessage(error),
      atMs: this.at(),
    };
    this.faults.push(fault);
    this.emit({ type: "fault", ...fault });
    if (fatal) this.end("assistant_error");
  }

  /**
   * The first frame of the answer to the caller's turn went out: the caller waited from the end of
   * their speech to here; the engine's share is from the model's first audio to that frame.
   */
  private framePlayed(itemId: string): void {
    this.personal?.assistantPlayed(itemId, this.frameFrom);
    const turn = this.turn;
    if (!turn || turn.itemId !== itemId || turn.firstAudioAt === null) return;
    this.turn = null;
    const now = this.clock.now();
    this.emit({
      type: "turn_metrics",
      metrics: {
        turn: turn.number,
        endOfTurnRule: null,
        endOfTurnWaitMs: null,
        sttMs: null,
        llmTtftMs: Math.round(turn.firstAudioAt - turn.stoppedAt),
        ttsTtfbMs: null,
        voiceToVoiceMs: Math.round(now - turn.stoppedAt),
        engineOverheadMs: Math.round(now - turn.firstAudioAt),
      },
    });
  }

  private setSpeaking(speaking: boolean): void {
    if (this.speaking === speaking || this.ended) return;
    this.speaking = speaking;
    this.emit({ type: "state", state: speaking ? "speaking" : "listening" });
  }

  private at(): number {
    if (this.startedAt === null) return 0;
    return Math.max(0, Math.round(this.clock.now() - this.startedAt));
  }

  /** The assistant the call starts with, acting on the call through this session. */
  private createAssistant(): RealtimeAssistant {
    const { settings, tools, context, workflow, handoffs } = this.options;
    return new RealtimeAssistant(
      { settings, tools, context, workflow, handoffs },
      {
        emit: (event) => this.emit(event),
        at: () => this.at(),
        forModel: (text) => (this.modelVault ? this.modelVault.mask(text) : text),
        update: (prompt) => this.client.update(prompt),
        say: (text) => this.gate.whenIdle(() => this.client.respond(`Say exactly: "${text}"`)),
        carryOn: () =>
          this.gate.whenIdle(() => this.client.respond(this.client.provider === "gemini-live" ? CARRY_ON : undefined)),
        end: (reason, farewell, beforeEnd) => {
          if (this.farewell || this.ended) return;
          this.endAfterFarewell(reason, farewell, beforeEnd, farewell === "");
          if (!farewell) return;
          this.gate.whenIdle(() => {
            if (this.farewell) this.farewell.asked = true;
            this.client.respond(`Say exactly: "${farewell}"`);
          });
        },
        isEnding: () => this.ended || this.farewell !== null,
        switchTo: (change) => this.switchAssistant(change),
      },
    );
  }
}

/** The words of `transcript` the caller heard, in proportion to the audio played of the item. */
export function heardPart(transcript: string, audioEndMs: number, receivedMs: number): string {
  const words = transcript.split(/\s+/).filter(Boolean);
  if (receivedMs <= 0) return "";
  const share = Math.min(1, audioEndMs / receivedMs);
  return words.slice(0, Math.floor(words.length * share)).join(" ");
}
