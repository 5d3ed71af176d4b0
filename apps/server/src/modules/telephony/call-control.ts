import type { StreamResume, TelephonyAccount, TelephonyAdapter, TransferRequest } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { failureFields } from "../../lib/log-options.ts";
import type { PhoneLegRef } from "./phone-leg.ts";
import { runWarmTransfer, type WarmTransferDeps } from "./warm-transfer.ts";

export type { PhoneLegRef } from "./phone-leg.ts";

/** URLs the vendor may need to carry on: transfer markup by URL, and the stream to reopen. */
export interface ControlLinks {
  /** A URL answering with the transfer's markup (for vendors that fetch it). */
  transferMarkupUrl(request: TransferRequest): Promise<string>;
  /** Where and with which grant the call's stream reopens after its markup is replaced. */
  resume(): Promise<StreamResume>;
}

/**
 * Transfer, DTMF out and hang-up of one phone call, through the vendor's adapter. The call log
 * records the transfer and the digits (the engine's events); a vendor refusal is reported back so
 * the log shows it too. Each action is tried once: a retried transfer could ring the target twice.
 */
export class CallControl {
  private hungUp = false;

  constructor(
    private readonly adapter: TelephonyAdapter,
    private readonly account: TelephonyAccount,
    readonly leg: PhoneLegRef,
    private readonly links: ControlLinks,
    /** Bound to the call (callId, workspaceId, provider) by whoever runs it. */
    private readonly log: FastifyBaseLogger,
    /** Present when the call may transfer warm (the stream route passes it); without it every transfer is cold. */
    private readonly warm: WarmTransferDeps | null = null,
  ) {}

  /**
   * Moves the call to `destination` (E.164 or SIP URI); the vendor ends the media stream. A warm
   * destination on a vendor with conferences briefs the human first (warm-transfer.ts); a warm
   * destination elsewhere is transferred cold, as docs/telephony.md says.
   */
  async transfer(destination: string): Promise<void> {
    const plan = this.warm && this.adapter.conference ? await this.warm.planFor(destination) : null;
    if (plan && this.warm && this.adapter.conference) {
      // It throws only when the caller could not be put on hold; past that the transfer owns the
      // call (it lets the caller go itself if the human does not answer), so our leg is not hung up.
      // The briefing runs on after the assistant's session has closed: the transport waits for it.
      try {
        await runWarmTransfer(this.adapter.conference, this.account, this.leg, plan, this.warm, this.log);
      } catch (error) {
        this.log.warn(
          { provider: this.leg.provider, ...failureFields(error) },
          "the carrier could not hold the caller for a warm transfer",
        );
        throw error;
      }
      this.hungUp = true;
      return;
    }
    const { providerCallId, ourNumber, statusUrl } = this.leg;
    const request: TransferRequest = { providerCallId, destination, callerId: ourNumber, statusUrl };
    if (this.adapter.transferMarkup) request.markupUrl = await this.links.transferMarkupUrl(request);
    try {
      await this.adapter.transfer(this.account, request);
    } catch (error) {
      // The call goes on with the assistant (it hears the failure): recoverable, so a warning.
      this.log.warn(
        { provider: this.leg.provider, ...failureFields(error) },
        "the carrier could not transfer the call",
      );
      throw error;
    }
    // The vendor owns the call now: hanging up our leg would drop the transferred caller.
    this.hungUp = true;
  }

  /** Plays digits to the far end; `beforeSend` hears whether the vendor will reopen the stream. */
  async sendDtmf(digits: string, beforeSend: (resume: StreamResume) => void): Promise<void> {
    const resume = await this.links.resume();
    beforeSend(resume);
    try {
      await this.adapter.sendDtmf(this.account, this.leg.providerCallId, digits, resume);
    } catch (error) {
      this.log.warn({ provider: this.leg.provider, ...failureFields(error) }, "the carrier could not send the digits");
      throw error;
    }
  }

  /** The caller is gone already (they hung up, the stream stopped): nothing left to hang up. */
  markEnded(): void {
    this.hungUp = true;
  }

  /** Hangs up the phone leg once; a failure is logged (the call is over for Parley either way). */
  async hangup(): Promise<void> {
    if (this.hungUp) return;
    this.hungUp = true;
    try {
      await this.adapter.hangup(this.account, this.leg.providerCallId);
    } catch (error) {
      // The carrier may keep the line open (and billing) after Parley is done with the call.
      this.log.error(
        { provider: this.leg.provider, ...failureFields(error) },
        "the carrier could not hang up the call",
      );
    }
  }
}
