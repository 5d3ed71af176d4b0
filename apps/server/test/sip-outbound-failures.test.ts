import { createSocket, type Socket } from "node:dgram";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { placeSipCall } from "../src/modules/sip/outbound.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call } from "./harness.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { runSipp } from "./support/sipp.ts";

/**
 * Outbound SIP calls to a trunk that refuses or is not there (issue 26 item 8): the call log closes
 * as failed as soon as the INVITE transaction fails, with the SIP status and reason phrase as its
 * end reason, instead of sitting queued until its room expires as "not joined".
 */

/** A carrier that answers every INVITE with 503 Service Unavailable. */
const refusingCarrier = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="Refusing carrier">
  <recv request="INVITE"/>
  <send>
    <![CDATA[
      SIP/2.0 503 Service Unavailable
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK"/>
</scenario>
`;

/** A TCP port nothing listens on (bound, then released). */
async function closedTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no TCP port");
  return address.port;
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

/** A trunk number whose carrier is 127.0.0.1:`port` over `transport`. */
function trunkNumber(number: string, port: number, transport: "udp" | "tcp") {
  const { t, workspaceId, agentId } = sip;
  return insertPhoneNumber(
    t.ctx.db,
    { workspaceId },
    {
      number,
      provider: "sip_trunk",
      outboundAgentId: agentId,
      sipTrunk: { sip_host: `127.0.0.1:${port}`, transport, username: "", register: false, allowed_ips: [] },
    },
  );
}

/** Places a call from `record` and waits for its log to close, as the call-log API shows it. */
async function placeAndClose(record: Awaited<ReturnType<typeof trunkNumber>>, waitMs: number) {
  const { t, token, workspaceId, agentId } = sip;
  const runtime = sipRuntimeOf(t.ctx);
  if (!runtime) throw new Error("SIP is not running");
  const started = Date.now();
  const placed = await placeSipCall(runtime.ctx, { workspaceId }, record, "+14155559876", agentId);
  expect(placed.status).toBe("queued");
  const log = await eventually(
    async () => {
      const res = await call(t, "GET", `/api/v1/call-logs/${placed.call_id}`, { token });
      const body = res.json<{ status: string; end_reason: string | null }>();
      return body.status === "failed" || body.status === "completed" ? body : null;
    },
    "the call log to close",
    waitMs,
  );
  return { log, elapsedMs: Date.now() - started };
}

describe("outbound SIP calls a trunk does not take", () => {
  it("closes the log at once with the trunk's 503 and its reason phrase", async () => {
    const carrierPort = await freeUdpPort();
    const record = await trunkNumber("+14155550121", carrierPort, "udp");
    const sipp = runSipp(refusingCarrier, ["-i", "127.0.0.1", "-p", String(carrierPort)]);
    try {
      const { log, elapsedMs } = await placeAndClose(record, 20_000);
      expect(log).toMatchObject({ status: "failed", end_reason: "SIP 503 Service Unavailable" });
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      console.info(`503 from the trunk: call log closed after ${elapsedMs} ms`);
    } finally {
      sipp.stop();
    }
  }, 60_000);

  it("closes the log with 503 at once when the trunk's TCP port refuses the connection", async () => {
    const record = await trunkNumber("+14155550122", await closedTcpPort(), "tcp");
    const { log, elapsedMs } = await placeAndClose(record, 20_000);
    expect(log).toMatchObject({ status: "failed", end_reason: "SIP 503 Service Unavailable" });
    console.info(`TCP connection refused: call log closed after ${elapsedMs} ms`);
  }, 60_000);

  it("closes the log with 408 at Timer B (32 s) when a UDP trunk never answers", async () => {
    // A carrier address that takes the INVITE and its retransmissions and never says a word.
    const silent: Socket = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    let received = 0;
    silent.on("message", () => {
      received += 1;
    });
    try {
      const record = await trunkNumber("+14155550123", silent.address().port, "udp");
      const { log, elapsedMs } = await placeAndClose(record, 55_000);
      expect(log).toMatchObject({ status: "failed", end_reason: "SIP 408 Request Timeout" });
      expect(received).toBeGreaterThan(1);
      // Timer B is 64·T1 = 32 s; before it the call still waited out its 70 s room ("not joined").
      expect(elapsedMs).toBeGreaterThanOrEqual(31_000);
      console.info(`silent UDP trunk: call log closed after ${elapsedMs} ms, ${received} INVITEs sent`);
    } finally {
      silent.close();
    }
  }, 70_000);
});
