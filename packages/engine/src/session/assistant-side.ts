import { BackgroundMixer } from "../audio/background.ts";
import type { SpeechOutput, Utterance } from "../speech/speech-output.ts";
import { createSpeechPipeline, type SpeechPipeline } from "../speech/speech-pipeline.ts";
import { findPhrase } from "../text/phrases.ts";
import type { PiiVault } from "../text/pii-vault.ts";
import type { BuiltInActions } from "./built-in-tools.ts";
import { Conversation } from "./conversation.ts";
import type { FaultPolicy, GuardedStages } from "./fault-policy.ts";
import type { TurnMetricsTracker } from "./turn-metrics.ts";
import type { AssistantSwitch, CallEvent, CallSessionOptions, Clock, EndReason } from "./types.ts";
import { WorkflowDirector } from "./workflow-director.ts";

/** What the assistant side needs from the call around it. */
export interface AssistantSideContext {
  options: CallSessionOptions;
  /** The model and voice as the fault policy guards them (deadlines, backups). */
  stages: Pick<GuardedStages, "llm" | "tts">;
  faults: FaultPolicy;
  /** Unique per call: the start of its tool calls' idempotency keys. */
  callKey: string;
  clock: Clock;
  metrics: TurnMetricsTracker;
  emit(event: CallEvent): void;
  /** The call's placeholders for personal data, when PII redaction is on (shared by every assistant of the call). */
  pii: PiiVault | null;
  /** Milliseconds since the call started. */
  at(): number;
  /** Every frame the caller hears. */
  onFrame(pcm: Int16Array): void;
  onUtteranceStart(): void;
  /** An utterance's first audible frame went to the transport. */
  onUtteranceAudible(): void;
  onUtteranceDone(utterance: Utterance): void;
  isEnding(): boolean;
  end(reason: EndReason, options: { farewell?: string; beforeEnd?: () => void }): void;
  /** Hands the call to the next assistant (a hand-off tool was called and accepted). */
  switchTo(change: AssistantSwitch): Promise<void>;
  /** A workflow's hand-off node asks to pass the call to another squad member. */
  handOff(member: string, reason: string, message: string): void;
}

export interface AssistantSide {
  speech: SpeechPipeline;
  conversation: Conversation;
  /** The call's workflow in charge of the conversation; null when the assistant runs on its prompt alone. */
  workflow: WorkflowDirector | null;
}

/** Builds the speech pipeline and the conversation, wired to the call's events, metrics and built-in tools. */
export function createAssistantSide(ctx: AssistantSideContext): AssistantSide {
  const speech = createSpeech(ctx);
  return { speech, ...createConversationSide(ctx, speech.output) };
}

/** The speech pipeline, which lives as long as the call: a hand-off changes its voice, not the pipeline. */
function createSpeech(ctx: AssistantSideContext): SpeechPipeline {
  const { background } = ctx.options.settings;
  return createSpeechPipeline({
    clock: ctx.clock,
    tts: ctx.stages.tts,
    background: background ? new BackgroundMixer(background.id, background.volume) : null,
    lineRate: ctx.options.lineRate,
    hooks: {
      onFrame: ctx.onFrame,
      onTtsRequest: () => ctx.metrics.ttsRequest(),
      onTtsFirstAudio: () => {
        ctx.faults.voiceSpoke();
        ctx.metrics.ttsFirstAudio();
      },
      onTtsError: (error, audioStarted) => ctx.faults.voiceFailed(ctx.stages.tts.id, error, audioStarted),
      onStart: () => ctx.onUtteranceStart(),
      onAudible: () => ctx.onUtteranceAudible(),
      // The reply's words reach the chat as they are heard, a sentence at a time; the final follows.
      onSentenceStart: (spoken) =>
        ctx.emit({ type: "transcript", role: "assistant", text: spoken.trim(), final: false, atMs: ctx.at() }),
      onDone: (u) => ctx.onUtteranceDone(u),
    },
  });
}

/**
 * The assistant's conversation (prompt, tools, model loop) and its workflow, speaking through
 * `output`: built when the call starts and again for each assistant a hand-off passes the call to.
 */
export function createConversationSide(
  ctx: AssistantSideContext,
  output: SpeechOutput,
): Pick<AssistantSide, "conversation" | "workflow"> {
  const settings = ctx.options.settings;
  const { endCall } = settings;
  const runner = ctx.options.workflow;
  const workflow = runner ? new WorkflowDirector(runner, ctx) : null;
  const conversation: Conversation = new Conversation({
    settings,
    llm: ctx.stages.llm,
    tools: ctx.options.tools,
    output,
    clock: ctx.clock,
    systemPrompt: ctx.options.context ? `${settings.systemPrompt}\n\n${ctx.options.context}` : settings.systemPrompt,
    builtIns: builtInActions(ctx, endCall.goodbye),
    faults: {
      modelFailed: (provider, error, attempt, midStream) => ctx.faults.modelFailed(provider, error, attempt, midStream),
      malformedToolCall: (provider, error) => ctx.faults.malformedToolCall(provider, error),
      toolFailed: (name, error) => ctx.faults.toolFailed(name, error),
      toolTimeoutMs: settings.faults.toolTimeoutMs,
      callKey: ctx.callKey,
    },
    director: workflow ?? undefined,
    vault: settings.piiRedaction.model ? ctx.pii : null,
    handoff: ctx.options.handoffs && {
      handoffs: ctx.options.handoffs,
      say: (text): Utterance => conversation.speak(text, { interruptible: false }),
      isEnding: ctx.isEnding,
      switchTo: ctx.switchTo,
    },
    hooks: {
      onLlmRequest: () => ctx.metrics.llmRequest(),
      onLlmFirstToken: () => ctx.metrics.llmFirstToken(),
      onToolCall: (call, result, durationMs) =>
        ctx.emit({
          type: "tool_call",
          name: call.name,
          arguments: call.arguments,
          result: result.content,
          ok: result.ok,
          durationMs,
          atMs: ctx.at(),
        }),
      onToolSkipped: (call, reason) => ctx.emit({ type: "tool_skipped", name: call.name, reason, atMs: ctx.at() }),
      onReplySpoken: (text) => {
        if (!ctx.isEnding() && findPhrase(text, endCall.phrases)) {
          ctx.end("end_phrase", { farewell: endCall.goodbye });
        }
      },
    },
  });
  return { conversation, workflow };
}

function builtInActions(ctx: AssistantSideContext, goodbye: string): BuiltInActions {
  return {
    endCall: () => ctx.end("assistant_ended", { farewell: goodbye }),
    transfer: (destination) =>
      ctx.end("transferred", {
        farewell: destination.transfer_message,
        beforeEnd: () =>
          ctx.emit({
            type: "transfer",
            destination: { name: destination.name, number: destination.number },
            atMs: ctx.at(),
          }),
      }),
    sendDtmf: (digits: string) => ctx.emit({ type: "dtmf_out", digits, atMs: ctx.at() }),
  };
}
