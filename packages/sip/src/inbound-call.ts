import { ALLOW, CallLeg } from "./call-leg.ts";
import { contactTarget, Dialog } from "./dialog.ts";
import { cseqOf, type SipRequest } from "./message.ts";
import { parseSdp } from "./sdp.ts";
import type { IncomingRequest, SipStack } from "./stack.ts";
import { parseNameAddr, parseUri, randomToken } from "./uri.ts";

/**
 * A call arriving by INVITE (the UAS side, RFC 3261 §13.3): ring, answer with SDP, or reject;
 * CANCEL before the answer ends it with 487.
 */
export class InboundCall extends CallLeg {
  readonly localTag = randomToken(6);
  private answered = false;
  private answerSdp = "";

  constructor(
    stack: SipStack,
    readonly invite: IncomingRequest,
  ) {
    super(stack, invite.message.headers.get("call-id") ?? "", "inbound");
    this.remoteSdp = invite.message.body.toString("utf8");
  }

  get request(): SipRequest {
    return this.invite.message;
  }

  /** The Request-URI's user part (the number or extension dialled). */
  get calledUser(): string | null {
    return (
      parseUri(this.request.uri)?.user ??
      parseUri(parseNameAddr(this.request.headers.get("to") ?? "").uri)?.user ??
      null
    );
  }

  /** The caller's From URI user and display name. */
  get caller(): { user: string | null; display: string | null; uri: string } {
    const from = parseNameAddr(this.request.headers.get("from") ?? "");
    return { user: parseUri(from.uri)?.user ?? null, display: from.display, uri: from.uri };
  }

  get offer() {
    return parseSdp(this.remoteSdp);
  }

  async trying(): Promise<void> {
    await this.invite.reply(100);
  }

  async ring(): Promise<void> {
    if (this.state === "early" && !this.answered)
      await this.invite.reply(180, { toTag: this.localTag, headers: this.recordRoute() });
  }

  /**
   * The INVITE's Record-Route, copied into every dialog-creating response (RFC 3261 12.1.1), so the
   * caller routes its ACK and BYE through the proxies that asked to stay on the path.
   */
  private recordRoute(): [string, string][] {
    return this.invite.message.headers.getAll("record-route").map((value) => ["Record-Route", value]);
  }

  /** Answers with our SDP; the call is confirmed when the ACK arrives. */
  async accept(sdp: string): Promise<void> {
    if (this.state !== "early" || this.answered) return;
    this.answered = true;
    this.answerSdp = sdp;
    const contact = `<${this.stack.contactUri("parley", this.invite.from.transport)}>`;
    const { message } = this.invite;
    this.dialog = new Dialog(this.stack, {
      callId: this.callId,
      local: `${message.headers.get("to") ?? ""};tag=${this.localTag}`,
      remote: message.headers.get("from") ?? "",
      remoteTarget: contactTarget(message, parseNameAddr(message.headers.get("from") ?? "").uri),
      contact,
      localSeq: Math.floor(Math.random() * 10_000),
      peer: this.invite.from,
      routes: message.headers.getAll("record-route"),
    });
    await this.invite.reply(200, {
      toTag: this.localTag,
      headers: [...this.recordRoute(), ["Contact", contact], ["Allow", ALLOW], ["Content-Type", "application/sdp"]],
      body: sdp,
    });
  }

  /** Refuses the call (486 busy, 480 unavailable, 404, 403, 488, or 401/407 with a challenge header). */
  async reject(status: number, options: { reason?: string; headers?: [string, string][] } = {}): Promise<void> {
    if (this.state !== "early" || this.answered) return;
    await this.invite.reply(status, { toTag: this.localTag, ...options });
    this.end("rejected");
  }

  /** The caller gave up before the answer. */
  async cancelled(cancel: IncomingRequest): Promise<void> {
    await cancel.reply(200);
    if (this.answered || this.state !== "early") return;
    await this.invite.reply(487, { toTag: this.localTag });
    this.end("cancelled");
  }

  override async hangup(): Promise<void> {
    if (this.state === "early" && !this.answered) return this.reject(480);
    // Answered but not yet ACKed: BYE is allowed once the 2xx is out (§15); the 2xx stops repeating.
    this.stack.forgetAck(this.callId, cseqOf(this.request).seq);
    return super.hangup();
  }

  protected override async answerReinvite(request: IncomingRequest): Promise<void> {
    await request.reply(200, {
      toTag: this.localTag,
      headers: [
        ["Contact", this.dialog?.state.contact ?? ""],
        ["Content-Type", "application/sdp"],
      ],
      body: this.answerSdp,
    });
  }
}
