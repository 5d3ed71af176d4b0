import { concatPcm } from "../../src/audio/pcm.ts";
import type { WebhookExchange } from "./double-server.ts";
import { type LegEvent, PhoneLeg, type StreamWire } from "./phone-leg.ts";

/** A transfer the vendor carried out: the stream ended and the call went to `destination`. */
export interface TransferRecord {
  callId: string;
  destination: string;
  callerId?: string | undefined;
  at: number;
}

/** DTMF the vendor played to the far end on Parley's request. */
export interface DtmfOutRecord {
  callId: string;
  digits: string;
  at: number;
}

/** How a simulated caller behaves on an incoming call. */
export interface InboundOptions {
  /** Caller speech, 16 kHz PCM. */
  speech?: Int16Array;
  /** Keys the caller presses after the speech, one every 250 ms. */
  dtmf?: string[];
  /** Signs the call's webhooks with a wrong key, to test that Parley answers 403. */
  forgeSignature?: boolean;
}

/** How the far end answers an outbound call. */
export type OutboundOutcome = "answer" | "busy" | "no-answer" | "failed" | "machine";

/**
 * The vendor-neutral state of one simulated call: its streams (phone legs), transfers, DTMF sent to
 * it, and the run of markup the vendor is executing. An API update (redirect, transfer) or a hangup
 * interrupts the current run: `generation` changes and the run's sleeps end early.
 */
export class SimulatedCall {
  readonly legs: PhoneLeg[] = [];
  readonly transfers: TransferRecord[] = [];
  readonly dtmfOut: DtmfOutRecord[] = [];
  /** What happened, in order, in the vendor's words (status changes, verbs run), for debugging tests. */
  readonly timeline: { at: number; what: string }[] = [];
  answeredAt: number | null = null;
  endedAt: number | null = null;
  /** Set once the call is over (hung up, completed, failed). */
  ended = false;
  /** Bumped each time the running markup is replaced or stopped. */
  generation = 0;
  /** What the far end will say and press on the next stream that opens. */
  pendingSpeech: Int16Array | undefined;
  pendingDtmf: readonly string[] | undefined;
  readonly done: Promise<void>;
  private resolveDone: () => void = () => {};
  private readonly wakers = new Set<() => void>();
  private readonly streamWaiters = new Set<(leg: PhoneLeg) => void>();

  constructor(
    readonly id: string,
    readonly direction: "inbound" | "outbound",
    readonly from: string,
    readonly to: string,
    readonly startedAt: number,
    private readonly now: () => number,
  ) {
    this.done = new Promise<void>((resolve) => {
      this.resolveDone = resolve;
    });
  }

  /** What the far end will say and press on the next stream that opens. */
  prepareFarEnd(farEnd: { speech?: Int16Array | undefined; dtmf?: readonly string[] | undefined }): void {
    this.pendingSpeech = farEnd.speech;
    this.pendingDtmf = farEnd.dtmf;
  }

  note(what: string): void {
    this.timeline.push({ at: this.now(), what });
  }

  /** The stream open now, if any. */
  currentLeg(): PhoneLeg | null {
    const last = this.legs[this.legs.length - 1];
    return last && !last.closed ? last : null;
  }

  /** Opens a stream to `url` on which the far end says and presses what it was prepared to. */
  openLeg(url: string, wire: StreamWire, headers: Record<string, string> = {}): PhoneLeg {
    const leg = new PhoneLeg({ url, headers, wire, speech: this.pendingSpeech, dtmf: this.pendingDtmf, now: this.now });
    this.prepareFarEnd({});
    this.addLeg(leg);
    return leg;
  }

  addLeg(leg: PhoneLeg): void {
    this.legs.push(leg);
    void leg.opened.then(
      () => {
        for (const waiter of this.streamWaiters) waiter(leg);
        this.streamWaiters.clear();
      },
      () => {},
    );
  }

  /** Resolves with the first stream that opens from now on, or the one open now. */
  waitForStream(timeoutMs = 30_000): Promise<PhoneLeg> {
    const open = this.currentLeg();
    if (open) return open.opened.then(() => open);
    return new Promise<PhoneLeg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.streamWaiters.delete(onLeg);
        reject(new Error(`No media stream opened for call ${this.id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const onLeg = (leg: PhoneLeg) => {
        clearTimeout(timer);
        resolve(leg);
      };
      this.streamWaiters.add(onLeg);
    });
  }

  /** Everything Parley sent on all of the call's streams, 16 kHz PCM. */
  received(): Int16Array {
    return concatPcm(this.legs.map((leg) => leg.received()));
  }

  /** What the far end heard on all streams. */
  played(): Int16Array {
    return concatPcm(this.legs.map((leg) => leg.played()));
  }

  /** Stream events of all legs, in order. */
  events(): LegEvent[] {
    return this.legs.flatMap((leg) => leg.events);
  }

  /** Stops the running markup (its sleeps return false) and ends the open stream as `by`. */
  async interrupt(by: "vendor" | "caller"): Promise<void> {
    this.generation++;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    await this.currentLeg()?.end(by);
  }

  /** Waits `ms`; false when the run was interrupted meanwhile (the caller should stop). */
  sleep(ms: number, generation: number): Promise<boolean> {
    if (generation !== this.generation || this.ended) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.wakers.delete(wake);
        resolve(generation === this.generation && !this.ended);
      }, ms);
      this.wakers.add(wake);
    });
  }

  /** Seconds from answer to end, rounded up as the vendors bill (0 when never answered). */
  durationSeconds(): number {
    if (this.answeredAt === null) return 0;
    const end = this.endedAt ?? this.now();
    return Math.max(1, Math.ceil((end - this.answeredAt) / 1000));
  }

  finish(): void {
    if (this.endedAt === null) this.endedAt = this.now();
    this.ended = true;
    this.generation++;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    this.resolveDone();
  }
}

/** What `ringInbound` returns: the call, the voice webhook exchange and the caller's controls. */
export interface CallHandle<C extends SimulatedCall> {
  call: C;
  /** The voice webhook exchange (status 403 when Parley refused the signature). */
  voice: WebhookExchange;
  /** Resolves with the stream once the markup opened it. */
  stream(timeoutMs?: number): Promise<PhoneLeg>;
  /** The caller hangs up. */
  hangup(): Promise<void>;
  /** Resolves when the call is over and its final status callback has been sent. */
  done: Promise<void>;
}

/** The handle of a call that rang in: `hangup` is how the vendor ends it from the caller's side. */
export function callHandle<C extends SimulatedCall>(
  call: C,
  voice: WebhookExchange,
  hangup: () => Promise<void>,
): CallHandle<C> {
  return { call, voice, stream: (timeoutMs) => call.waitForStream(timeoutMs), hangup, done: call.done };
}
