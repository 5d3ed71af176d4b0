import type { CallEndReason, FaultAction, FaultKind, FaultStage } from "@parley/contract";
import { FallbackLlm, FallbackStt, FallbackTts } from "../providers/fallback.ts";
import { faultKind, faultMessage } from "../providers/fault-kind.ts";
import type { FallbackSwitch } from "../providers/provider-chain.ts";
import { FirstAudioDeadline, FirstTokenDeadline } from "../providers/stage-deadlines.ts";
import type { LlmProvider, SttProvider, TtsProvider } from "../providers/types.ts";
import type { FaultSettings } from "./call-settings.ts";
import type { CallEvent, CallFault, CallSessionOptions, Clock } from "./types.ts";

/**
 * How long the caller may hear nothing while the assistant owes them a reply before the recovery
 * line is said: counted from the end of their speech, then from the end of the last thing said.
 * With the voice's own first-byte time it keeps every gap under 4 s.
 */
export const RECOVERY_GAP_MS = 2800;
/**
 * The least time a reply gets from the moment the turn was decided before the recovery line: a
 * turn that waited long for its words or its end (an open phrase waits 1.5 s) still gives the model
 * and voice a fair chance, so a healthy but unhurried reply is not met with "I'm having trouble".
 */
export const MIN_REPLY_CHANCE_MS = 1500;
/** Recovery lines said for one reply before the call gives up on it. */
const MAX_RECOVERY_LINES = 2;
/** Sentences in a row that no voice could say before the call gives up on speaking. */
const MAX_SILENT_SENTENCES = 3;

/**
 * The id of the providers that run on this machine (the offline recogniser and voice): they cannot
 * hang or go silent the way a vendor's network can, and under load they are slow without being
 * broken, so they are held to no deadline and not watched for silence.
 */
export const ON_MACHINE = "local";

/** The end reasons of a call the fault policy ended. */
export type GiveUpReason = "assistant_error" | "transcriber_error" | "voice_error";

const GIVE_UP_REASON: Record<Exclude<FaultStage, "tool">, GiveUpReason> = {
  llm: "assistant_error",
  stt: "transcriber_error",
  tts: "voice_error",
};

/** What the policy does to the call around it. */
export interface FaultPolicyHooks {
  clock: Clock;
  emit(event: CallEvent): void;
  /** Milliseconds since the call started. */
  at(): number;
  /** Says the recovery line outside the conversation's history. */
  sayRecovery(text: string): void;
  /** True while the assistant owes the caller a reply and nothing is being said. */
  replyOwed(): boolean;
  /** The call cannot go on: say the goodbye (and hand the caller on, when set), then end with `reason`. */
  giveUp(reason: GiveUpReason, farewell: string, transferTo: string | null): void;
}

/** The stages of one call as the policy guards them: deadlines per provider, then the chain of backups. */
export interface GuardedStages {
  llm: LlmProvider;
  stt: SttProvider;
  tts: TtsProvider;
}

/**
 * The fault policy every channel's calls share. It builds each stage as a chain (the assistant's
 * provider, its backups, for the voice the offline last resort), each provider held to a deadline
 * for its first output; it records every fault with what was done about it; it keeps the caller
 * from silence while a reply is owed (the recovery line), and ends the call with the failing
 * stage's reason when nothing works.
 */
export class FaultPolicy {
  readonly faults: CallFault[] = [];
  private watchdog: unknown = null;
  private quietSince: number | null = null;
  /** When the current turn's first quiet stretch runs out (newTurn); later stretches get RECOVERY_GAP_MS. */
  private firstDeadline: number | null = null;
  private recoveryLines = 0;
  private silentSentences = 0;
  private gaveUp = false;
  /** Whether a stage has more than one provider: a failure mid-stream is then retried on another. */
  private backups = { llm: false, tts: false };

  constructor(
    private readonly settings: FaultSettings,
    private readonly hooks: FaultPolicyHooks,
  ) {}

  /** The call's three stages, guarded: every provider on a deadline, backups behind it. */
  guard(options: Pick<CallSessionOptions, "llm" | "stt" | "tts" | "fallbacks">): GuardedStages {
    const { firstTokenTimeoutMs, firstAudioTimeoutMs } = this.settings;
    const onSwitch = (hop: FallbackSwitch) => this.onSwitch(hop);
    const clock = this.hooks.clock;
    const llms = [options.llm, ...(options.fallbacks?.llm ?? [])].map(
      (p) => new FirstTokenDeadline(p, firstTokenTimeoutMs, clock),
    );
    const voices = [options.tts, ...(options.fallbacks?.tts ?? [])].map((p) =>
      p.id === ON_MACHINE ? p : new FirstAudioDeadline(p, firstAudioTimeoutMs, clock),
    );
    this.backups = { llm: llms.length > 1, tts: voices.length > 1 };
    return {
      llm: new FallbackLlm(llms, onSwitch),
      stt: new FallbackStt([options.stt, ...(options.fallbacks?.stt ?? [])], onSwitch),
      tts: new FallbackTts(voices, onSwitch),
    };
  }

  /** Records a fault and tells the call's listeners (log, live view, webhooks). */
  record(stage: FaultStage, provider: string, error: unknown, action: FaultAction, kind?: FaultKind): CallFault {
    const fault: CallFault = {
      stage,
      provider,
      kind: kind ?? faultKind(error),
      action,
      error: faultMessage(error),
      atMs: this.hooks.at(),
    };
    this.faults.push(fault);
    this.hooks.emit({ type: "fault", ...fault });
    return fault;
  }

  // ── the model ─────────────────────────────────────────────────────────────

  /**
   * The model failed a reply past its chain (every provider tried). The first time in a turn the
   * caller hears the recovery line and the reply is asked again; the second time the call gives up.
   * Returns true to ask again.
   */
  modelFailed(provider: string, error: unknown, attempt: number, midStream = false): boolean {
    if (this.gaveUp) return false;
    // A stream that broke after words came out was cut, whatever the socket said about it; the
    // chain has put its provider last, so with a backup the reply is asked of the backup.
    const kind = midStream ? "stream_cut" : undefined;
    if (attempt === 1) {
      this.record("llm", provider, error, midStream && this.backups.llm ? "fallback" : "recovered", kind);
      // The watchdog may have said it already while the chain was timing out: once is enough.
      if (this.recoveryLines === 0) this.recover();
      return true;
    }
    this.record("llm", provider, error, "gave_up", kind);
    this.giveUp("llm");
    return false;
  }

  /** A tool call's arguments were not JSON: the model is told and asked again. */
  malformedToolCall(provider: string, error: unknown): void {
    this.record("llm", provider, error, "retried");
  }

  // ── tools ─────────────────────────────────────────────────────────────────

  /** A tool timed out or failed: the model hears the tool error and carries on. */
  toolFailed(name: string, error: unknown): void {
    this.record("tool", name, error, "recovered");
  }

  // ── the transcriber ───────────────────────────────────────────────────────

  /** Every transcriber failed (or could not open): the call cannot hear the caller and ends. */
  transcriberFailed(provider: string, error: unknown): void {
    if (this.gaveUp) return;
    this.record("stt", provider, error, "gave_up");
    this.giveUp("stt");
  }

  // ── the voice ─────────────────────────────────────────────────────────────

  /** A sentence no voice could say (or whose stream was cut): skipped, the next goes to the chain. */
  voiceFailed(provider: string, error: unknown, audioStarted: boolean): void {
    if (this.gaveUp) return;
    if (audioStarted) {
      // The sentence is said again whole; with a backup, by the backup (the chain put this voice last).
      this.record("tts", provider, error, this.backups.tts ? "fallback" : "retried", "stream_cut");
      return;
    }
    this.silentSentences += 1;
    if (this.silentSentences < MAX_SILENT_SENTENCES) {
      this.record("tts", provider, error, "skipped");
      return;
    }
    this.record("tts", provider, error, "gave_up");
    this.giveUp("tts");
  }

  /** A voice said something: the run of silent sentences is over. */
  voiceSpoke(): void {
    this.silentSentences = 0;
  }

  // ── the caller's wait ─────────────────────────────────────────────────────

  /**
   * A new caller turn, decided now, whose wait began at `startedAt` (the end of their speech): its
   * reply may use the recovery lines again, and its first quiet stretch ends RECOVERY_GAP_MS after
   * `startedAt`, but no sooner than MIN_REPLY_CHANCE_MS from now.
   */
  newTurn(startedAt: number): void {
    this.recoveryLines = 0;
    this.firstDeadline = Math.max(startedAt + RECOVERY_GAP_MS, this.hooks.clock.now() + MIN_REPLY_CHANCE_MS);
  }

  /**
   * Keeps the caller from silence while a reply is owed. The call reports whether it owes one and
   * nothing is being said (`owed`) whenever that may have changed; a quiet stretch that reaches
   * RECOVERY_GAP_MS (from the end of the caller's speech, then from the end of the last thing said)
   * gets the recovery line, and one that outlasts the recovery lines ends the call.
   */
  quiet(owed: boolean): void {
    if (!owed || this.gaveUp) {
      this.quietSince = null;
      this.stopWatch();
      return;
    }
    if (this.quietSince !== null) return;
    const clock = this.hooks.clock;
    const since = clock.now();
    const deadline = this.firstDeadline ?? since + RECOVERY_GAP_MS;
    this.quietSince = since;
    this.firstDeadline = null;
    this.stopWatch();
    this.watchdog = clock.setTimeout(
      () => {
        this.watchdog = null;
        if (this.quietSince !== since) return;
        this.quietSince = null;
        if (this.hooks.replyOwed()) this.silenceTooLong();
      },
      Math.max(0, deadline - clock.now()),
    );
  }

  /** The call is over: no more recovery lines. */
  stop(): void {
    this.gaveUp = true;
    this.stopWatch();
  }

  private stopWatch(): void {
    if (this.watchdog !== null) this.hooks.clock.clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private silenceTooLong(): void {
    if (this.gaveUp) return;
    if (this.recoveryLines < MAX_RECOVERY_LINES) {
      this.recover();
      return;
    }
    this.record("llm", "reply", new Error(`no reply after ${MAX_RECOVERY_LINES} recovery lines`), "gave_up");
    this.giveUp("llm");
  }

  /** Says the recovery line, at most a few times per reply. */
  private recover(): void {
    if (this.recoveryLines >= MAX_RECOVERY_LINES) return;
    this.recoveryLines += 1;
    this.hooks.sayRecovery(this.settings.recoveryMessage);
  }

  private giveUp(stage: Exclude<FaultStage, "tool">): void {
    if (this.gaveUp) return;
    this.gaveUp = true;
    this.stopWatch();
    this.hooks.giveUp(GIVE_UP_REASON[stage], this.settings.goodbye, this.settings.transferNumber);
  }

  private onSwitch(hop: FallbackSwitch): void {
    const action: FaultAction = hop.retry ? "retried" : "fallback";
    if (action === "fallback") {
      this.hooks.emit({
        type: "provider_fallback",
        stage: hop.stage,
        from: hop.from,
        to: hop.to,
        error: faultMessage(hop.error),
      });
    }
    this.record(hop.stage, hop.from, hop.error, action);
  }
}

/** Reasons a call ends on when something failed; they outrank the fault outcomes below. */
const FAILED: ReadonlySet<string> = new Set(["error", "assistant_error", "transcriber_error", "voice_error"]);
/** Reasons that say why the call ended on purpose and keep their place over a recovered fault. */
const DELIBERATE: ReadonlySet<string> = new Set(["transferred", "voicemail", "not_joined"]);

/**
 * The end reason a call's log reports. A call ended by a failure keeps it. A call that went on to
 * an ordinary end after a fault reports the fault instead — `fallback_used` when a backup provider
 * took over, `tool_timeout`/`tool_error` for a tool, else the stage that failed and recovered —
 * and its events keep how it ended (an `ended` event).
 */
export function reportedEndReason(reason: CallEndReason, faults: readonly CallFault[]): CallEndReason {
  if (FAILED.has(reason) || DELIBERATE.has(reason) || faults.length === 0) return reason;
  if (faults.some((f) => f.action === "fallback")) return "fallback_used";
  const tool = faults.find((f) => f.stage === "tool");
  const stage = faults.find((f) => f.stage !== "tool")?.stage;
  if (stage && stage !== "tool") return GIVE_UP_REASON[stage];
  if (tool) return tool.kind === "timeout" ? "tool_timeout" : "tool_error";
  return reason;
}

/** Whether a call that ended on `reason` failed (its log's status). */
export function endedInFailure(reason: CallEndReason): boolean {
  return FAILED.has(reason);
}
