import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent } from "@parley/engine";
import type { CallLeg, RtpSession } from "@parley/sip";
import type { FastifyBaseLogger } from "fastify";
import type { CallTransport } from "../calls/runtime.ts";
import { Downsampler } from "./rate-convert.ts";

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What happens to the phone leg when the assistant transfers the call. */
export type TransferOutcome = "referred" | "bridged";

/**
 * A call's transport over SIP: the engine's 16 kHz audio goes out as paced 8 kHz G.711 RTP, a
 * barge-in drops what is still queued, DTMF goes out as RFC 4733 events, and the end of the call
 * hangs the phone leg up with BYE (unless a transfer handed it on). The browser's JSON messages
 * have no place on a phone line and are dropped.
 */
export class RtpCallTransport implements CallTransport {
  /** G.711 over RTP: the caller's line is 8 kHz. */
  readonly lineRate = 8000;
  private readonly down = new Downsampler();
  private transferring: Promise<TransferOutcome | null> | null = null;

  constructor(
    private readonly leg: CallLeg,
    private readonly rtp: RtpSession,
    private readonly transfer: (number: string) => Promise<TransferOutcome>,
    private readonly log: FastifyBaseLogger,
    private readonly onClosed: () => void,
    /** Holds the hang-up until it is sent, so a closing server sends every BYE before its listener goes. */
    private readonly track: (hangingUp: Promise<void>) => void = () => {},
  ) {}

  send(_message: RealtimeServerMessage): void {}

  sendAudio(pcm: Int16Array): void {
    this.rtp.sendAudio(this.down.process(pcm));
  }

  control(event: CallEvent, report: (problem: string) => void): void {
    if (event.type === "interruption") {
      this.rtp.clearAudio();
    } else if (event.type === "transfer") {
      const { number } = event.destination;
      this.transferring = this.transfer(number).catch((error: unknown) => {
        report(`The transfer to ${number} failed: ${describe(error)}`);
        return null;
      });
    } else if (event.type === "dtmf_out") {
      for (const digit of event.digits) if (/^[0-9*#A-D]$/i.test(digit)) this.rtp.sendDtmf(digit.toUpperCase());
    }
  }

  close(_code: number, reason: string): void {
    const hangingUp = this.closeLeg(reason === "server_shutdown").catch((error: unknown) =>
      this.log.warn({ err: error }, "could not hang up the SIP leg"),
    );
    this.track(hangingUp);
  }

  /** `now`: the server is closing, so the BYE goes without waiting for the last words to play out. */
  private async closeLeg(now: boolean): Promise<void> {
    const outcome = this.transferring ? await this.transferring : null;
    // A bridged call keeps both legs (and this RTP session) up: the bridge ends them.
    if (outcome === "bridged") return;
    // Let the last words play out before the BYE (at most a few seconds).
    const until = now ? 0 : Date.now() + 5_000;
    while (outcome === null && this.rtp.pendingSamples > 0 && Date.now() < until && this.leg.state !== "ended") {
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    if (outcome === null) await this.leg.hangup();
    this.rtp.close();
    this.onClosed();
  }
}
