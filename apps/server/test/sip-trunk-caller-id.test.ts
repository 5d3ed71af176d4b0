import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { placeSipCall } from "../src/modules/sip/outbound.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { freeUdpPort } from "./support/sip-peers.ts";
import { runSipp } from "./support/sipp.ts";

/**
 * A carrier's view of Parley's outbound INVITE (issue 26 item 4): the caller ID is the trunk
 * number, in From and in P-Asserted-Identity (RFC 3325), while the digest answer still names the
 * trunk's login. sipp plays the carrier and writes every message it receives to a file the test reads.
 */

const NUMBER = "+14155550111";
const LOGIN = { username: "trunkuser", password: "s3cret-trunk" };

/**
 * Challenges the INVITE (401), checks the repeated INVITE's digest against the trunk login, then
 * declines the call (603; 403 when the digest was wrong): the INVITEs are what the test is about.
 */
const carrierScenario = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Caller ID carrier">
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
      <verifyauth assign_to="authvalid" username="${LOGIN.username}" password="${LOGIN.password}"/>
    </action>
  </recv>
  <nop hide="true" test="authvalid" next="goodauth"/>
  <send next="answered">
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
      SIP/2.0 603 Decline
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag02[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <label id="answered"/>
  <recv request="ACK"/>
</scenario>
`;

/** The INVITEs in a sipp -trace_msg file, each as its first line and headers. */
function receivedInvites(trace: string): string[] {
  return trace
    .split(/^-{10,}.*$/m)
    .filter((entry) => /message received/i.test(entry))
    .map((entry) => entry.slice(entry.indexOf("\n", entry.search(/message received/i))).trim())
    .filter((message) => message.startsWith("INVITE "));
}

/** The value of the first header `name` of a message, or null. */
function header(message: string, name: string): string | null {
  const line = message.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

let llm: ScriptedLlm;
let sip: SipApp;

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Hello." }));
  sip = await startSipApp(llm, { first_message: "Hello." });
  // Migrating a fresh database takes a while on a loaded machine.
}, 180_000);
afterAll(async () => {
  await sip.t.close();
  await llm.close();
});

describe("SIP trunk caller ID", () => {
  it("presents the trunk number in From and P-Asserted-Identity and answers the digest with the trunk login", async () => {
    const { t, workspaceId, agentId } = sip;
    const carrierPort = await freeUdpPort();
    const record = await insertPhoneNumber(
      t.ctx.db,
      { workspaceId },
      {
        number: NUMBER,
        provider: "sip_trunk",
        outboundAgentId: agentId,
        sipTrunk: {
          sip_host: `127.0.0.1:${carrierPort}`,
          transport: "udp",
          username: LOGIN.username,
          register: false,
          allowed_ips: [],
        },
        sipPassword: t.ctx.secrets.encrypt(LOGIN.password),
      },
    );
    const messages = path.join(mkdtempSync(path.join(tmpdir(), "parley-caller-id-")), "messages.log");
    const sipp = runSipp(carrierScenario, ["-i", "127.0.0.1", "-p", String(carrierPort), "-message_file", messages]);
    try {
      const runtime = sipRuntimeOf(t.ctx);
      if (!runtime) throw new Error("SIP is not running");
      const placed = await placeSipCall(runtime.ctx, { workspaceId }, record, "+14155559876", agentId);
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      // The first INVITE and the one answering the challenge (a retransmission may appear twice).
      const invites = receivedInvites(readFileSync(messages, "utf8"));
      const authorised = invites.filter((invite) => header(invite, "Authorization") !== null);
      expect(invites.length - authorised.length, readFileSync(messages, "utf8").slice(0, 3000)).toBeGreaterThan(0);
      expect(authorised.length).toBeGreaterThan(0);
      for (const invite of invites) {
        expect(header(invite, "From"), invite).toMatch(/^<sip:\+14155550111@127\.0\.0\.1(:\d+)?>;tag=/);
        expect(header(invite, "P-Asserted-Identity"), invite).toMatch(/^<sip:\+14155550111@127\.0\.0\.1(:\d+)?>$/);
      }
      for (const invite of authorised)
        expect(header(invite, "Authorization"), invite).toMatch(/^Digest .*username="trunkuser"/);
      // The carrier checked that digest against the login: a wrong one would have been refused with 403.
      const log = await sip.closedLog(placed.call_id);
      expect(log).toMatchObject({ status: "failed", end_reason: "SIP 603 Decline", from_number: NUMBER });
    } finally {
      sipp.stop();
    }
  }, 60_000);
});
