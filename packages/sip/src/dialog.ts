import { SipHeaders, type SipRequest, type SipResponse } from "./message.ts";
import type { SipStack } from "./stack.ts";
import type { Peer } from "./transport.ts";
import { parseNameAddr } from "./uri.ts";

/**
 * A dialog (RFC 3261 §12): the Call-ID, both tags, the local CSeq and where in-dialog requests go.
 * Requests go to the peer the dialog was set up with (the address the INVITE came from, or the
 * trunk we sent it to) rather than a resolved Contact, which keeps calls working behind NAT.
 */
export interface DialogState {
  callId: string;
  /** Our From (with our tag) as sent in requests of this dialog. */
  local: string;
  /** Their address (with their tag) as our requests' To. */
  remote: string;
  /** Their Contact URI: the Request-URI of our in-dialog requests. */
  remoteTarget: string;
  /** Our Contact header value. */
  contact: string;
  localSeq: number;
  peer: Peer;
  /** Route set from Record-Route (§12.1), in the order our requests use it. */
  routes: string[];
}

export class Dialog {
  constructor(
    private readonly stack: SipStack,
    readonly state: DialogState,
  ) {}

  get callId(): string {
    return this.state.callId;
  }

  /** Builds the next in-dialog request (not ACK, whose CSeq is the INVITE's). */
  build(method: string, extra: [string, string][] = [], body?: { type: string; content: string }): SipRequest {
    this.state.localSeq += 1;
    return this.compose(method, this.state.localSeq, extra, body);
  }

  compose(method: string, seq: number, extra: [string, string][] = [], body?: { type: string; content: string }) {
    const headers = new SipHeaders();
    for (const route of this.state.routes) headers.append("Route", route);
    headers.append("From", this.state.local);
    headers.append("To", this.state.remote);
    headers.append("Call-ID", this.state.callId);
    headers.append("CSeq", `${seq} ${method}`);
    headers.append("Contact", this.state.contact);
    for (const [name, value] of extra) headers.append(name, value);
    if (body) headers.append("Content-Type", body.type);
    const message: SipRequest = {
      kind: "request",
      method,
      uri: this.state.remoteTarget,
      headers,
      body: Buffer.from(body?.content ?? "", "utf8"),
    };
    return message;
  }

  request(
    method: string,
    extra: [string, string][] = [],
    body?: { type: string; content: string },
  ): Promise<SipResponse> {
    return this.stack.request(this.build(method, extra, body), this.state.peer);
  }
}

/** The remote target of a request or response: its Contact URI, else the fallback. */
export function contactTarget(message: { headers: SipHeaders }, fallback: string): string {
  const contact = message.headers.get("contact");
  return contact ? parseNameAddr(contact).uri : fallback;
}
