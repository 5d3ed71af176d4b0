import type { Clock } from "../clock/clock.ts";
import { systemClock } from "../clock/system-clock.ts";
import { redactSecrets } from "../providers/fault-kind.ts";
import { CallerEars, type ReplyOutcome, type ReplyWait } from "./caller-ears.ts";
import { interruptAfter, splitInHalves, type TurnActions, turnActions } from "./caller-turns.ts";
import { CallerVoice } from "./caller-voice.ts";
import { PersonaModel } from "./persona-model.ts";
import type { CallerEnd, CallerReport, CallerTurnRecord, SimulatedCaller, SimulatedCallerOptions } from "./types.ts";

export { ASSISTANT_DONE_SILENCE_MS, HEARING_THRESHOLD_DBFS } from "./caller-ears.ts";

/** After a caller turn, the caller goes on when the assistant has said nothing for this long. */
export const REPLY_TIMEOUT_MS = 15_000;
/** A silent turn ends when the assistant has spoken and finished, or after this long. */
export const SILENT_TURN_TIMEOUT_MS = 30_000;
/** A persona's pause before each line (a script line has its own `wait_ms`). */
export const PERSONA_WAIT_MS = 300;
/** Between two key presses of one turn, as a person presses them. */
export const DTMF_GAP_MS = 150;
/** After the last key of a turn, before its words. */
export const DTMF_TO_SPEECH_MS = 300;
/** How long a persona waits for the assistant's words after hearing its reply end (transcripts lag the audio). */
const WORDS_GRACE_MS = 1000;

/** The call ended under the caller: the turn in progress stops where it is. */
class CallerStopped extends Error {
  constructor() {
    super("The simulated caller stopped");
  }
}

interface Waiter {
  check(now: number): boolean;
  fail(error: Error): void;
}

/** What turn `turn` does: its actions, its words, and whether the call ends after its reply. */
interface Turn extends TurnActions {
  turn: number;
  text: string;
  /** Wait for this turn's reply to end, then hang up. */
  last: boolean;
  /** Cut into the reply to this turn after this long (the next turn speaks over it). */
  nextInterruptsAfterMs: number | null;
}

class Caller implements SimulatedCaller {
  readonly done: Promise<CallerReport>;
  private resolveDone: (report: CallerReport) => void = () => {};
  private readonly clock: Clock;
  private readonly ears = new CallerEars();
  private readonly voice: CallerVoice;
  private readonly persona: PersonaModel | null;
  private readonly abort = new AbortController();
  private readonly waiters = new Set<Waiter>();
  private readonly turns: CallerTurnRecord[] = [];
  private readonly audioListeners: ((pcm: Int16Array) => void)[] = [];
  private readonly dtmfListeners: ((digit: string) => void)[] = [];
  private readonly hangupListeners: (() => void)[] = [];
  private startedAt: number | null = null;
  private ended = false;

  constructor(private readonly options: SimulatedCallerOptions) {
    this.clock = options.clock ?? systemClock;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.voice = new CallerVoice(
      this.clock,
      options.tts,
      (pcm) => {
        for (const listener of this.audioListeners) listener(pcm);
      },
      () => this.poll(),
    );
    const { plan, llm } = options;
    if (plan.mode === "persona" && !llm) throw new Error("A persona caller needs a model");
    this.persona = plan.mode === "persona" && llm ? new PersonaModel(llm, plan) : null;
  }

  start(): void {
    if (this.startedAt !== null || this.ended) return;
    this.startedAt = this.clock.now();
    this.ears.begin(this.startedAt);
    this.voice.start();
    void this.run();
  }

  hearAudio(pcm: Int16Array): void {
    if (this.ended) return;
    this.ears.hear(pcm, this.clock.now());
    this.poll();
  }

  hearWords(text: string): void {
    if (!this.ended) this.persona?.heard(text);
  }

  stop(): void {
    this.finish("stopped", null);
  }

  onAudio(listener: (pcm: Int16Array) => void): void {
    this.audioListeners.push(listener);
  }

  onDtmf(listener: (digit: string) => void): void {
    this.dtmfListeners.push(listener);
  }

  onHangup(listener: () => void): void {
    this.hangupListeners.push(listener);
  }

  // ── the conversation ──────────────────────────────────────────────────────

  private async run(): Promise<void> {
    try {
      const end = this.persona ? await this.runPersona(this.persona) : await this.runScript();
      this.finish(end, null);
    } catch (error) {
      if (error instanceof CallerStopped) return;
      this.finish("failed", redactSecrets(error instanceof Error ? error.message : String(error)));
    }
  }

  private async runScript(): Promise<CallerEnd> {
    const { script, behaviours } = this.options.plan;
    let trigger = await this.firstTrigger();
    for (const [index, line] of script.entries()) {
      const number = index + 1;
      const last = number === script.length;
      const actions = turnActions(behaviours, number);
      // An empty line that presses nothing leaves the assistant to speak next, as a silent turn.
      const silent = actions.silent || (line.text === "" && actions.dtmf === "");
      if (trigger !== "interrupt") await this.sleep(line.wait_ms);
      const nextInterruptsAfterMs = last ? null : interruptAfter(behaviours, number + 1);
      trigger = await this.takeTurn({ ...actions, silent, turn: number, text: line.text, last, nextInterruptsAfterMs });
    }
    return "finished";
  }

  private async runPersona(persona: PersonaModel): Promise<CallerEnd> {
    const { maxTurns, behaviours } = this.options.plan;
    let trigger = await this.firstTrigger();
    for (let number = 1; number <= maxTurns; number++) {
      const actions = turnActions(behaviours, number);
      const pause = trigger === "interrupt" ? Promise.resolve() : this.sleep(PERSONA_WAIT_MS);
      const line = actions.silent
        ? { text: "", hangUp: false }
        : (await Promise.all([this.ask(persona, trigger), pause]))[0];
      await pause;
      if (line.hangUp && line.text === "" && actions.dtmf === "") return "finished";
      const last = line.hangUp || number === maxTurns;
      const nextInterruptsAfterMs = last ? null : interruptAfter(behaviours, number + 1);
      trigger = await this.takeTurn({ ...actions, turn: number, text: line.text, last, nextInterruptsAfterMs });
      if (line.hangUp) return "finished";
    }
    return "max_turns";
  }

  /** The persona's next line, once the words of the reply it heard have arrived (or a moment after). */
  private async ask(persona: PersonaModel, trigger: ReplyOutcome | "connected") {
    if (trigger === "finished" && !persona.heardSinceLastLine) {
      const deadline = this.clock.now() + WORDS_GRACE_MS;
      await this.until((now) => (persona.heardSinceLastLine || now >= deadline ? true : null));
    }
    try {
      const line = await persona.next(this.abort.signal);
      this.check();
      return line;
    } catch (error) {
      if (this.ended) throw new CallerStopped();
      throw new Error(`The caller's model failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** When turn 1 may start: after the greeting (or into it), or at once when the assistant waits. */
  private firstTrigger(): Promise<ReplyOutcome | "connected"> {
    const { behaviours } = this.options.plan;
    if (!this.options.assistantSpeaksFirst) return Promise.resolve("connected");
    const interruptAfterMs = behaviours.interrupts_greeting ? behaviours.interrupt_after_ms : null;
    return this.awaitReply({ interruptAfterMs, timeoutMs: REPLY_TIMEOUT_MS }, false);
  }

  /** One turn: keys, then words (in halves with a pause, when asked), then the wait for the reply. */
  private async takeTurn(turn: Turn): Promise<ReplyOutcome> {
    const now = this.clock.now();
    const record: CallerTurnRecord = {
      turn: turn.turn,
      text: turn.silent ? "" : turn.text,
      dtmf: turn.silent ? "" : turn.dtmf,
      silent: turn.silent,
      interrupted: this.ears.speaking(now),
      startedAtMs: now - (this.startedAt ?? now),
      speechEndedAtMs: null,
    };
    this.turns.push(record);
    if (turn.silent) {
      this.ears.listen(now);
      return this.awaitReply({ interruptAfterMs: null, timeoutMs: SILENT_TURN_TIMEOUT_MS }, turn.last);
    }
    await this.press(turn.dtmf, turn.text !== "");
    if (turn.text) await this.say(turn.text, record);
    this.ears.listen(this.clock.now());
    return this.awaitReply({ interruptAfterMs: turn.nextInterruptsAfterMs, timeoutMs: REPLY_TIMEOUT_MS }, turn.last);
  }

  private async press(digits: string, thenSpeak: boolean): Promise<void> {
    for (const [index, digit] of [...digits].entries()) {
      if (index > 0) await this.sleep(DTMF_GAP_MS);
      this.check();
      for (const listener of this.dtmfListeners) listener(digit);
    }
    if (digits && thenSpeak) await this.sleep(DTMF_TO_SPEECH_MS);
  }

  private async say(text: string, record: CallerTurnRecord): Promise<void> {
    this.persona?.said(text);
    const pauseMs = this.options.plan.behaviours.pause_mid_sentence_ms;
    const parts = pauseMs === null ? [text] : splitInHalves(text);
    const onAudible = (at: number) => {
      record.speechEndedAtMs = at - (this.startedAt ?? at);
    };
    for (const [index, part] of parts.entries()) {
      if (index > 0 && pauseMs !== null) this.voice.pause(pauseMs);
      try {
        await this.voice.say(part, this.abort.signal, onAudible);
      } catch (error) {
        if (this.ended) throw new CallerStopped();
        throw new Error(`The caller's voice failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      this.check();
    }
    await this.voice.drained();
    this.check();
  }

  /** Waits for the reply (see `ReplyWait`); after the last turn's reply the caller hangs up. */
  private async awaitReply(wait: ReplyWait, last: boolean): Promise<ReplyOutcome> {
    return this.until((now) => this.ears.outcome(now, last ? { ...wait, interruptAfterMs: null } : wait));
  }

  // ── waiting on the caller's own clock ─────────────────────────────────────

  /** Resolves with the first non-null answer of `probe`, asked on every frame sent or heard. */
  private until<T>(probe: (now: number) => T | null): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.ended) {
        reject(new CallerStopped());
        return;
      }
      const waiter: Waiter = {
        check: (now) => {
          const answer = probe(now);
          if (answer === null) return false;
          this.waiters.delete(waiter);
          resolve(answer);
          return true;
        },
        fail: reject,
      };
      if (!waiter.check(this.clock.now())) this.waiters.add(waiter);
    });
  }

  private sleep(ms: number): Promise<boolean> {
    const until = this.clock.now() + ms;
    return this.until((now) => (now >= until ? true : null));
  }

  private poll(): void {
    const now = this.clock.now();
    for (const waiter of [...this.waiters]) waiter.check(now);
  }

  /** Stops a turn whose call ended while it awaited something outside the caller's waits. */
  private check(): void {
    if (this.ended) throw new CallerStopped();
  }

  private finish(end: CallerEnd, error: string | null): void {
    if (this.ended) return;
    this.ended = true;
    this.voice.stop();
    this.abort.abort();
    for (const waiter of this.waiters) waiter.fail(new CallerStopped());
    this.waiters.clear();
    if (end !== "stopped") for (const listener of this.hangupListeners) listener();
    this.resolveDone({ end, turns: this.turns.map((turn) => ({ ...turn })), error });
  }
}

/** A test suite's simulated caller (see `SimulatedCaller`): script or persona, heard and heard by audio only. */
export function createSimulatedCaller(options: SimulatedCallerOptions): SimulatedCaller {
  return new Caller(options);
}
