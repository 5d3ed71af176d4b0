/**
 * sipp scenarios for the SIP tests. Keywords in [brackets] are sipp's; SDP bodies are given by the
 * test so the media goes to a socket it owns.
 */

type Credentials = { username: string; password: string };

/** Lines of a message or body, indented as in sipp's own scenarios. */
const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");

/**
 * A message the scenario sends: its first line and headers, then Content-Length (of `body`, or 0)
 * and the body. `attributes` go on the <send> element (retransmission, jumps).
 */
function send(firstLine: string, headers: string[], options: { body?: string; attributes?: string } = {}): string {
  const length = options.body === undefined ? "Content-Length: 0" : "Content-Length: [len]";
  const body = options.body === undefined ? "" : `\n${indent(options.body)}`;
  return `<send${options.attributes ?? ""}>
    <![CDATA[
${indent([firstLine, ...headers, length].join("\n"))}
${body}
    ]]>
  </send>`;
}

/** A response to the request just received, adding `toTag` to its To header when given. */
function respond(
  status: string,
  options: { toTag?: string; headers?: string[]; body?: string; attributes?: string } = {},
): string {
  const to = options.toTag ? `[last_To:];tag=${options.toTag}` : "[last_To:]";
  const headers = ["[last_Via:]", "[last_From:]", to, "[last_Call-ID:]", "[last_CSeq:]", ...(options.headers ?? [])];
  return send(`SIP/2.0 ${status}`, headers, options);
}

/** The caller's side of its call: who it is, whom it calls. */
interface Dialog {
  from: string;
  to: string;
}

/**
 * A request from the caller: `inDialog` requests carry the tag Parley gave the call; `headers`
 * stand before Max-Forwards, `after` behind it.
 */
function request(
  method: string,
  uri: string,
  dialog: Dialog,
  cseq: number,
  options: { inDialog?: boolean; headers?: string[]; after?: string[]; body?: string; attributes?: string } = {},
): string {
  const headers = [
    "Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport",
    `From: ${dialog.from};tag=[pid]SIPpTag00[call_number]`,
    `To: ${dialog.to}${options.inDialog ? "[peer_tag_param]" : ""}`,
    "Call-ID: [call_id]",
    `CSeq: ${cseq} ${method}`,
    ...(options.headers ?? []),
    "Max-Forwards: 70",
    ...(options.after ?? []),
  ];
  return send(`${method} ${uri} SIP/2.0`, headers, options);
}

function invite(dialog: Dialog, sdp: string, cseq: number, auth: boolean): string {
  return request("INVITE", "sip:[service]@[remote_ip]:[remote_port]", dialog, cseq, {
    headers: ["Contact: <sip:caller@[local_ip]:[local_port];transport=[transport]>"],
    after: [...(auth ? ["[authentication]"] : []), "Content-Type: application/sdp"],
    body: sdp,
    attributes: ' retrans="500"',
  });
}

const ack = (dialog: Dialog, cseq: number, uri = "sip:[service]@[remote_ip]:[remote_port]") =>
  request("ACK", uri, dialog, cseq, { inDialog: true });

/** What the caller does once the call is up. */
export type CallerTail =
  /** Stay until Parley hangs up. */
  | { kind: "wait" }
  /** Accept Parley's REFER (202, then NOTIFY "SIP/2.0 200 OK"), then take Parley's BYE. */
  | { kind: "accept-refer" }
  /** Refuse Parley's REFER (603), stay `holdMs` on the bridged call, then hang up. */
  | { kind: "refuse-refer"; holdMs: number };

function tail(kind: CallerTail, dialog: Dialog, cseq: number): string {
  if (kind.kind === "wait") return `<recv request="BYE"/>\n  ${respond("200 OK")}`;
  if (kind.kind === "accept-refer") {
    return `<recv request="REFER"/>
  ${respond("202 Accepted")}
  ${request("NOTIFY", "[next_url]", dialog, cseq + 1, {
    inDialog: true,
    headers: ["Event: refer", "Subscription-State: terminated;reason=noresource"],
    after: ["Content-Type: message/sipfrag;version=2.0"],
    body: "SIP/2.0 200 OK",
    attributes: ' retrans="500"',
  })}
  <recv response="200"/>
  <recv request="BYE"/>
  ${respond("200 OK")}`;
  }
  return `<recv request="REFER"/>
  ${respond("603 Decline")}
  <pause milliseconds="${kind.holdMs}"/>
  ${request("BYE", "[next_url]", dialog, cseq + 1, { inDialog: true, attributes: ' retrans="500"' })}
  <recv response="200"/>`;
}

function scenario(name: string, steps: string): string {
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="${name}">
  ${steps}
</scenario>
`;
}

/**
 * A caller that INVITEs [service], answers a 401 with digest credentials (-au/-ap) when
 * `challenged`, ACKs the 200 and stays on the call until Parley hangs up with BYE.
 */
export function callerScenario(options: {
  from: string;
  to: string;
  sdp: string;
  challenged: boolean;
  then?: CallerTail;
}): string {
  const { sdp } = options;
  const dialog = { from: options.from, to: options.to };
  const first = options.challenged
    ? `${invite(dialog, sdp, 1, false)}
  <recv response="100" optional="true"/>
  <recv response="401" auth="true"/>
  ${ack(dialog, 1)}
  ${invite(dialog, sdp, 2, true)}`
    : invite(dialog, sdp, 1, false);
  const cseq = options.challenged ? 2 : 1;
  return scenario(
    "Parley caller",
    `${first}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
  ${ack(dialog, cseq, "[next_url]")}
  ${tail(options.then ?? { kind: "wait" }, dialog, cseq)}`,
  );
}

/**
 * Challenges the `method` request just expected (401 tagged `tags.challenge`, digest realm
 * "carrier.test"), checks the repeated request's answer with verifyauth against `credentials`, and
 * refuses a wrong one with 403 (tagged `tags.refusal`, jumping to the scenario's "end" label); a
 * right one goes on at the label `accepted`.
 */
function challenge(
  method: string,
  tags: { challenge: string; refusal: string },
  nonce: string,
  accepted: string,
  credentials: Credentials,
): string {
  // A 401 to an INVITE ends its transaction, which the other side ACKs; a REGISTER has no ACK.
  const ack = method === "INVITE" ? '<recv request="ACK"/>\n  ' : "";
  return `<recv request="${method}"/>
  ${respond("401 Unauthorized", {
    toTag: tags.challenge,
    headers: [`WWW-Authenticate: Digest realm="carrier.test", nonce="${nonce}", qop="auth", algorithm=MD5`],
  })}
  ${ack}<recv request="${method}">
    <action>
      <verifyauth assign_to="authvalid" username="${credentials.username}" password="${credentials.password}"/>
    </action>
  </recv>
  <nop hide="true" test="authvalid" next="${accepted}"/>
  ${respond("403 Forbidden", { toTag: tags.refusal, attributes: ' next="end"' })}
  <label id="${accepted}"/>`;
}

/** The To tags of a carrier's answers: one for its challenge, another for what follows it. */
const CARRIER_TAGS = { challenge: "[pid]SIPpTag01[call_number]", refusal: "[pid]SIPpTag02[call_number]" };

/** Answers the INVITE just received with `sdp` from `contact`, then waits for Parley's BYE. */
function answer(contact: string, sdp: string): string {
  return `${respond("200 OK", {
    toTag: CARRIER_TAGS.refusal,
    headers: [
      `Contact: <sip:${contact}@[local_ip]:[local_port];transport=[transport]>`,
      "Content-Type: application/sdp",
    ],
    body: sdp,
    attributes: ' retrans="500"',
  })}
  <recv request="ACK"/>
  <recv request="BYE"/>
  ${respond("200 OK")}`;
}

/**
 * A carrier that challenges Parley's INVITE (401, digest realm "carrier.test"), checks the answer
 * with verifyauth against the trunk credentials, answers with `sdp`, and waits for Parley's BYE.
 */
export function carrierScenario(sdp: string, credentials: Credentials): string {
  return scenario(
    "Parley carrier",
    `${challenge("INVITE", CARRIER_TAGS, "[pid]n[call_number]c", "goodauth", credentials)}
  ${respond("180 Ringing", { toTag: CARRIER_TAGS.refusal })}
  ${answer("carrier", sdp)}
  <label id="end"/>`,
  );
}

/** A destination that answers with `sdp` and stays until the call is hung up from Parley's side. */
export function answererScenario(sdp: string): string {
  return scenario("Transfer destination", `<recv request="INVITE"/>\n  ${answer("desk", sdp)}`);
}

/** One REGISTER of Parley's: challenged, checked, then accepted with the expiry it asked for. */
function challengeRegister(step: number, credentials: Credentials): string {
  const toTag = `[pid]SIPpTagR${step}`;
  return `${challenge("REGISTER", { challenge: toTag, refusal: toTag }, `[pid]r${step}`, `good${step}`, credentials)}
  ${respond("200 OK", { toTag, headers: ["[last_Contact:]", "[last_Expires:]"] })}`;
}

/**
 * A carrier's registrar: challenges Parley's REGISTER, checks the digest, accepts it, then takes
 * the unregistration (Expires: 0) the same way. A wrong password fails the scenario.
 */
export function registrarScenario(credentials: Credentials): string {
  return scenario(
    "Carrier registrar",
    `${challengeRegister(1, credentials)}
  ${challengeRegister(2, credentials)}
  <nop hide="true" next="done"/>
  <label id="end"/>
  <nop hide="true"><action><exec int_cmd="stop_now"/></action></nop>
  <label id="done"/>`,
  );
}
