import { EventEmitter } from "node:events";
import type { Dialog } from "./dialog.ts";
import type { IncomingRequest, SipStack } from "./stack.ts";

/**
 * One side of a call once it is set up, whichever way it was: BYE both ways, re-INVITE and
 * OPTIONS answered in-dialog, and blind transfer by REFER (RFC 3515) followed through its NOTIFYs.
 */

export type CallEnd = "remote_bye" | "cancelled" | "local_hangup" | "rejected" | "failed";

export interface CallLegEvents {
  /** The call is up (inbound: the ACK arrived; outbound: the 200 was ACKed). */
  confirmed: [];
  ended: [reason: CallEnd];
  /** A NOTIFY about our REFER: the status line of the sipfrag body. */
  referProgress: [status: number];
}

/** How a REFER came out. */
export type ReferOutcome = "transferred" | "refused";

/** How long a transfer may take before it is given up and the call bridged instead. */
const REFER_TIMEOUT_MS = 30_000;

export class CallLeg extends EventEmitter<CallLegEvents> {
  dialog: Dialog | null = null;
  state: "early" | "confirmed" | "ended" = "early";
  /** The SDP the peer sent (offer or answer). */
  remoteSdp = "";

  constructor(
    protected readonly stack: SipStack,
    readonly callId: string,
    readonly direction: "inbound" | "outbound",
  ) {
    super();
  }

  protected end(reason: CallEnd): void {
    if (this.state === "ended") return;
    this.state = "ended";
    this.emit("ended", reason);
  }

  protected confirm(): void {
    if (this.state !== "early") return;
    this.state = "confirmed";
    this.emit("confirmed");
  }

  /** Ends the call from our side (BYE once confirmed). */
  async hangup(): Promise<void> {
    if (this.state === "ended") return;
    const dialog = this.dialog;
    this.end("local_hangup");
    if (dialog) await dialog.request("BYE").catch(() => undefined);
  }

  /** An in-dialog request from the peer. */
  async handle(request: IncomingRequest): Promise<void> {
    const { method } = request.message;
    if (method === "ACK") {
      this.confirm();
      return;
    }
    if (method === "BYE") {
      await request.reply(200);
      this.end("remote_bye");
      return;
    }
    if (method === "NOTIFY") {
      await request.reply(200);
      const status = /^SIP\/2\.0\s+(\d{3})/i.exec(request.message.body.toString("utf8").trim());
      if (status?.[1]) this.emit("referProgress", Number(status[1]));
      return;
    }
    if (method === "INVITE") {
      // A re-INVITE (session refresh, hold): keep the media as agreed.
      await this.answerReinvite(request);
      return;
    }
    if (method === "OPTIONS" || method === "INFO" || method === "UPDATE") {
      await request.reply(200);
      return;
    }
    await request.reply(method === "REFER" ? 603 : 405, { headers: [["Allow", ALLOW]] });
  }

  protected async answerReinvite(request: IncomingRequest): Promise<void> {
    await request.reply(488);
  }

  /**
   * Blind transfer (RFC 3515): asks the peer to call `target`. Transferred once a NOTIFY reports
   * 2xx (or the peer hangs up after accepting); refused on a non-2xx to the REFER, a failure
   * NOTIFY, or no outcome within 30 s.
   */
  async refer(target: string): Promise<ReferOutcome> {
    const dialog = this.dialog;
    if (!dialog || this.state !== "confirmed") return "refused";
    const response = await dialog.request("REFER", [
      ["Refer-To", `<${target}>`],
      ["Referred-By", `<${dialog.state.contact.replace(/^<|>.*$/g, "")}>`],
    ]);
    if (response.status < 200 || response.status >= 300) return "refused";
    return new Promise<ReferOutcome>((resolve) => {
      const done = (outcome: ReferOutcome) => {
        clearTimeout(timer);
        this.off("referProgress", onProgress);
        this.off("ended", onEnded);
        resolve(outcome);
      };
      const onProgress = (status: number) => {
        if (status >= 200 && status < 300) done("transferred");
        else if (status >= 300) done("refused");
      };
      const onEnded = () => done("transferred");
      const timer = setTimeout(() => done("refused"), REFER_TIMEOUT_MS);
      timer.unref();
      this.on("referProgress", onProgress);
      this.on("ended", onEnded);
    });
  }
}

export const ALLOW = "INVITE, ACK, CANCEL, BYE, OPTIONS, NOTIFY, REFER, INFO, UPDATE";
