import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent, Line, LineMeter, SimulatedCaller } from "@parley/engine";
import type { CallTransport, LiveCall } from "../../lib/call-runtime.ts";

/**
 * A test call's transport: the simulated caller is the far end, reached through the engine's `Line`
 * (a browser's 16 kHz PCM, or a phone's 8 kHz μ-law with its noise and loss) as a real caller is.
 * The meter hears both sides before the line touches them, as the caller's own ears would judge
 * silence and waits. The caller hears the assistant's audio, and its words as the transcript has
 * them; its audio and keys reach the call, and its hang-up ends it.
 */
export class TestLineTransport implements CallTransport {
  /** The session judges the reply's first audible frame at this rate (8000 on the phone profile). */
  readonly lineRate: number;
  /** Resolves with the end reason once the call has ended (the session has closed its transport). */
  readonly closed: Promise<string>;
  private live: LiveCall | null = null;
  private hungUp = false;
  private ended = false;
  private resolveClosed: (reason: string) => void = () => {};
  /** When the caller started, and the session's own origin as its dated events reveal it (performance.now()). */
  private callerStartedAt: number | null = null;
  private sessionOrigin = Number.POSITIVE_INFINITY;

  constructor(
    private readonly line: Line,
    private readonly meter: LineMeter,
    private readonly caller: SimulatedCaller,
  ) {
    this.lineRate = line.lineRate;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    caller.onAudio((pcm) => {
      this.meter.caller(pcm);
      this.live?.pushAudio(this.line.toAssistant(pcm));
    });
    caller.onDtmf((digit) => this.live?.pushDtmf(digit));
    caller.onHangup(() => this.hangUp());
  }

  /** The call has started: the caller's audio and keys go to it from now on. */
  attach(live: LiveCall): void {
    this.live = live;
    if (this.hungUp) void live.hangup("caller_hangup");
  }

  /** Starts the caller's clock, once the call is attached: from now on it hears, speaks and presses keys. */
  startCaller(): void {
    this.callerStartedAt = performance.now();
    this.caller.start();
  }

  /**
   * How far into the call (its log's `at_ms` clock) the caller started: its turns' times plus this
   * read on the call's clock. The session starts before the caller does (its greeting is prepared
   * first); each dated event it sends says where its origin was.
   */
  callerOffsetMs(): number {
    if (this.callerStartedAt === null || !Number.isFinite(this.sessionOrigin)) return 0;
    return Math.max(0, this.callerStartedAt - this.sessionOrigin);
  }

  /** The caller hangs up (its part is done, or the run's time for the call is up). */
  hangUp(): void {
    if (this.hungUp || this.ended) return;
    this.hungUp = true;
    void this.live?.hangup("caller_hangup");
  }

  // The browser's JSON messages mean nothing to the simulated caller: it hears audio and transcripts.
  send(_message: RealtimeServerMessage): void {}

  sendAudio(pcm: Int16Array): void {
    this.meter.assistant(pcm);
    this.caller.hearAudio(this.line.toCaller(pcm));
  }

  control(event: CallEvent): void {
    if ("atMs" in event) this.sessionOrigin = Math.min(this.sessionOrigin, performance.now() - event.atMs);
    if (event.type === "transcript" && event.role === "assistant" && event.final) this.caller.hearWords(event.text);
  }

  close(_code: number, reason: string): void {
    this.ended = true;
    this.caller.stop();
    this.resolveClosed(reason);
  }
}
