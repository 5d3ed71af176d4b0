/**
 * sipp scenarios for the SIP tests. Keywords in [brackets] are sipp's; SDP bodies are given by the
 * test so the media goes to a socket it owns.
 */

const okToRequest = `
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>`;

function invite(from: string, to: string, sdp: string, cseq: number, auth: boolean): string {
  return `
  <send retrans="500">
    <![CDATA[
      INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}
      Call-ID: [call_id]
      CSeq: ${cseq} INVITE
      Contact: <sip:caller@[local_ip]:[local_port];transport=[transport]>
      Max-Forwards: 70
${auth ? "      [authentication]\n" : ""}      Content-Type: application/sdp
      Content-Length: [len]

${sdp
  .split("\n")
  .map((l) => `      ${l}`)
  .join("\n")}
    ]]>
  </send>`;
}

function ack(from: string, to: string, cseq: number, uri = "sip:[service]@[remote_ip]:[remote_port]"): string {
  return `
  <send>
    <![CDATA[
      ACK ${uri} SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq} ACK
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>`;
}

/** What the caller does once the call is up. */
export type CallerTail =
  /** Stay until Parley hangs up. */
  | { kind: "wait" }
  /** Accept Parley's REFER (202, then NOTIFY "SIP/2.0 200 OK"), then take Parley's BYE. */
  | { kind: "accept-refer" }
  /** Refuse Parley's REFER (603), stay `holdMs` on the bridged call, then hang up. */
  | { kind: "refuse-refer"; holdMs: number };

function tail(kind: CallerTail, from: string, to: string, cseq: number): string {
  if (kind.kind === "wait") return `<recv request="BYE"/>\n  ${okToRequest}`;
  if (kind.kind === "accept-refer") {
    return `<recv request="REFER"/>
  ${reply(202, "Accepted")}
  <send retrans="500">
    <![CDATA[
      NOTIFY [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq + 1} NOTIFY
      Event: refer
      Subscription-State: terminated;reason=noresource
      Max-Forwards: 70
      Content-Type: message/sipfrag;version=2.0
      Content-Length: [len]

      SIP/2.0 200 OK
    ]]>
  </send>
  <recv response="200"/>
  <recv request="BYE"/>
  ${okToRequest}`;
  }
  return `<recv request="REFER"/>
  ${reply(603, "Decline")}
  <pause milliseconds="${kind.holdMs}"/>
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: ${from};tag=[pid]SIPpTag00[call_number]
      To: ${to}[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq + 1} BYE
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <recv response="200"/>`;
}

function reply(status: number, reason: string): string {
  return `<send>
    <![CDATA[
      SIP/2.0 ${status} ${reason}
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>`;
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
  const { from, to, sdp } = options;
  const first = options.challenged
    ? `${invite(from, to, sdp, 1, false)}
  <recv response="100" optional="true"/>
  <recv response="401" auth="true"/>
  ${ack(from, to, 1)}
  ${invite(from, to, sdp, 2, true)}`
    : invite(from, to, sdp, 1, false);
  const cseq = options.challenged ? 2 : 1;
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Parley caller">
  ${first}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
  ${ack(from, to, cseq, "[next_url]")}
  ${tail(options.then ?? { kind: "wait" }, from, to, cseq)}
</scenario>
`;
}

/**
 * A carrier that challenges Parley's INVITE (401, digest realm "carrier.test"), checks the answer
 * with verifyauth against the trunk credentials, answers with `sdp`, and waits for Parley's BYE.
 */
export function carrierScenario(sdp: string, credentials: { username: string; password: string }): string {
  const body = sdp
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n");
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Parley carrier">
  <recv request="INVITE"/>
  <send>
    <![CDATA[
      SIP/2.0 401 Unauthorized
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      WWW-Authenticate: Digest realm="carrier.test", nonce="[pid]n[call_number]c", qop="auth", algorithm=MD5
      Content-Length: 0

    ]]>
  </send>
  <recv request="ACK"/>
  <recv request="INVITE">
    <action>
      <verifyauth assign_to="authvalid" username="${credentials.username}" password="${credentials.password}"/>
    </action>
  </recv>
  <nop hide="true" test="authvalid" next="goodauth"/>
  <send next="end">
    <![CDATA[
      SIP/2.0 403 Forbidden
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag02[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>
  <label id="goodauth"/>
  <send>
    <![CDATA[
      SIP/2.0 180 Ringing
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag02[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag02[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:carrier@[local_ip]:[local_port];transport=[transport]>
      Content-Type: application/sdp
      Content-Length: [len]

${body}
    ]]>
  </send>
  <recv request="ACK"/>
  <recv request="BYE"/>
  ${okToRequest}
  <label id="end"/>
</scenario>
`;
}

/** A destination that answers with `sdp` and stays until the call is hung up from Parley's side. */
export function answererScenario(sdp: string): string {
  const body = sdp
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n");
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Transfer destination">
  <recv request="INVITE"/>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag02[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:desk@[local_ip]:[local_port];transport=[transport]>
      Content-Type: application/sdp
      Content-Length: [len]

${body}
    ]]>
  </send>
  <recv request="ACK"/>
  <recv request="BYE"/>
  ${okToRequest}
</scenario>
`;
}

function challengeRegister(step: number, credentials: { username: string; password: string }): string {
  return `
  <recv request="REGISTER"/>
  <send>
    <![CDATA[
      SIP/2.0 401 Unauthorized
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTagR${step}
      [last_Call-ID:]
      [last_CSeq:]
      WWW-Authenticate: Digest realm="carrier.test", nonce="[pid]r${step}", qop="auth", algorithm=MD5
      Content-Length: 0

    ]]>
  </send>
  <recv request="REGISTER">
    <action>
      <verifyauth assign_to="authvalid" username="${credentials.username}" password="${credentials.password}"/>
    </action>
  </recv>
  <nop hide="true" test="authvalid" next="good${step}"/>
  <send next="end">
    <![CDATA[
      SIP/2.0 403 Forbidden
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTagR${step}
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>
  <label id="good${step}"/>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTagR${step}
      [last_Call-ID:]
      [last_CSeq:]
      [last_Contact:]
      [last_Expires:]
      Content-Length: 0

    ]]>
  </send>`;
}

/**
 * A carrier's registrar: challenges Parley's REGISTER, checks the digest, accepts it, then takes
 * the unregistration (Expires: 0) the same way. A wrong password fails the scenario.
 */
export function registrarScenario(credentials: { username: string; password: string }): string {
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Carrier registrar">
  ${challengeRegister(1, credentials)}
  ${challengeRegister(2, credentials)}
  <nop hide="true" next="done"/>
  <label id="end"/>
  <nop hide="true"><action><exec int_cmd="stop_now"/></action></nop>
  <label id="done"/>
</scenario>
`;
}
