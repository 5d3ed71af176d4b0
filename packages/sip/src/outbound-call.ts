import { CallLeg } from "./call-leg.ts";
import { contactTarget, Dialog } from "./dialog.ts";
import { answerChallenge } from "./digest.ts";
import { cseqOf, SipHeaders, type SipRequest, type SipResponse } from "./message.ts";
import type { SipStack } from "./stack.ts";
import type { Peer } from "./transport.ts";
import { randomToken } from "./uri.ts";

/** A call we place by INVITE (the UAC side, RFC 3261 §13.2). */
export class OutboundCall extends CallLeg {
  private invite: SipRequest | null = null;

  /** Gives up a call not yet answered (CANCEL, §9.1). */
  async cancel(): Promise<void> {
    const invite = this.invite;
    if (!invite || this.state !== "early" || this.dialog) return;
    const headers = new SipHeaders();
    headers.append("Via", invite.headers.get("via") ?? "");
    for (const name of ["from", "to", "call-id"]) headers.append(name, invite.headers.get(name) ?? "");
    headers.append("CSeq", `${cseqOf(invite).seq} CANCEL`);
    const cancel: SipRequest = { kind: "request", method: "CANCEL", uri: invite.uri, headers, body: Buffer.alloc(0) };
    // CANCEL shares the INVITE's branch: sent raw so the stack does not give it a new Via.
    await this.stack.transport.send(cancel, this.peerOf()).catch(() => undefined);
  }

  private peer: Peer | null = null;
  private peerOf(): Peer {
    if (!this.peer) throw new Error("not dialled");
    return this.peer;
  }

  /** @internal Used by dial() as the INVITE is (re)sent. */
  track(invite: SipRequest, peer: Peer) {
    this.invite = invite;
    this.peer = peer;
  }

  /** @internal Sets up the dialog from the 2xx and ACKs it. */
  async established(invite: SipRequest, response: SipResponse, contact: string): Promise<void> {
    this.remoteSdp = response.body.toString("utf8");
    this.dialog = new Dialog(this.stack, {
      callId: this.callId,
      local: invite.headers.get("from") ?? "",
      remote: response.headers.get("to") ?? "",
      remoteTarget: contactTarget(response, invite.uri),
      contact,
      localSeq: cseqOf(invite).seq,
      peer: this.peerOf(),
      routes: response.headers.getAll("record-route").reverse(),
    });
    const ack = this.dialog.compose("ACK", cseqOf(invite).seq);
    await this.stack.sendAck(ack, this.peerOf());
    this.confirm();
  }

  /** @internal The INVITE failed. */
  failed(): void {
    this.end("failed");
  }
}

export interface DialOptions {
  /** Request-URI, e.g. "sip:+14155550123@carrier.example.com". */
  target: string;
  /** Where the INVITE is sent (the trunk, or a registered phone's contact). */
  peer: Peer;
  /** From URI, e.g. "sip:+14155550100@carrier.example.com". */
  from: string;
  fromDisplay?: string;
  /**
   * The caller's identity for a carrier that trusts us (RFC 3325 P-Asserted-Identity), e.g.
   * "sip:+14155550100@carrier.example.com": carriers present it as the caller ID.
   */
  assertedIdentity?: string | undefined;
  /** Credentials for a 401/407 challenge; their username may differ from From's user. */
  credentials?: { username: string; password: string } | undefined;
  /** The SDP offer. */
  sdp: string;
  onProvisional?: (response: SipResponse) => void;
  /** Extra headers on the INVITE. */
  headers?: [string, string][];
  /** How long the far end may ring before the call is CANCELled (60 s by default). */
  ringTimeoutMs?: number;
}

export interface DialResult {
  /** The final status (200 when answered). */
  status: number;
  reason: string;
  call: OutboundCall;
}

/**
 * Places a call: INVITE, answering one 401/407 challenge with digest credentials (a new CSeq in the
 * same Call-ID, §22.2), then ACK on 2xx.
 */
export async function dial(
  stack: SipStack,
  options: DialOptions,
  onCreated?: (call: OutboundCall) => void,
): Promise<DialResult> {
  const callId = `${randomToken(12)}@parley`;
  const call = new OutboundCall(stack, callId, "outbound");
  onCreated?.(call);
  const fromTag = randomToken(6);
  const contact = `<${stack.contactUri("parley", options.peer.transport)}>`;
  const display = options.fromDisplay ? `"${options.fromDisplay.replaceAll('"', "")}" ` : "";
  let seq = 1;
  let authorization: [string, string] | null = null;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const headers = new SipHeaders([
      ["From", `${display}<${options.from}>;tag=${fromTag}`],
      ["To", `<${options.target}>`],
      ["Call-ID", callId],
      ["CSeq", `${seq} INVITE`],
      ["Contact", contact],
      ["Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS, NOTIFY, REFER"],
      ["Content-Type", "application/sdp"],
      ...(options.assertedIdentity
        ? [["P-Asserted-Identity", `<${options.assertedIdentity}>`] as [string, string]]
        : []),
      ...(options.headers ?? []),
      ...(authorization ? [authorization] : []),
    ]);
    const invite: SipRequest = {
      kind: "request",
      method: "INVITE",
      uri: options.target,
      headers,
      body: Buffer.from(options.sdp),
    };
    call.track(invite, options.peer);
    const onProvisional = (response: SipResponse) => options.onProvisional?.(response);
    const ringMs = options.ringTimeoutMs ?? 60_000;
    // Nobody answers: CANCEL (the far end then sends 487); a far end that ignores even that is
    // given up with a local 408 a transaction timeout later. A far end that sends nothing at all
    // fails sooner, with the stack's 408 at Timer B (64·T1).
    const ringing = setTimeout(() => void call.cancel(), ringMs);
    ringing.unref();
    const response = await stack
      .request(invite, options.peer, { onProvisional, timeoutMs: ringMs + 64 * stack.t1 })
      .finally(() => clearTimeout(ringing));
    if (response.status >= 200 && response.status < 300) {
      await call.established(invite, response, contact);
      return { status: response.status, reason: response.reason, call };
    }
    const challengeHeader =
      response.status === 401 ? "www-authenticate" : response.status === 407 ? "proxy-authenticate" : null;
    const challenge = challengeHeader ? response.headers.get(challengeHeader) : undefined;
    if (attempt === 0 && challenge && options.credentials) {
      const answer = answerChallenge(challenge, options.credentials, { method: "INVITE", uri: options.target });
      if (answer) {
        authorization = [response.status === 401 ? "Authorization" : "Proxy-Authorization", answer];
        seq += 1;
        continue;
      }
    }
    call.failed();
    return { status: response.status, reason: response.reason, call };
  }
  call.failed();
  return { status: 401, reason: "Unauthorized", call };
}
