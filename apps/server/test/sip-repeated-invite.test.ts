import { randomUUID } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import {
  createResponse,
  parseMessage,
  SipHeaders,
  type SipRequest,
  type SipResponse,
  serializeMessage,
} from "@parley/sip";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findCallByCarrierId } from "../src/modules/call-logs/lookups-across-workspaces.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, type TestApp } from "./harness.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { MediaProbe, sdpFor } from "./support/sipp.ts";

/**
 * A Call-ID names one call: an out-of-dialog INVITE repeating the Call-ID of a call Parley already
 * logged (a merged request, RFC 3261 §8.2.2.2, or a replay) is refused with 482 Loop Detected and a
 * warning, and no second call is opened. Before, the call log's unique (provider, provider_call_id)
 * index made opening the second call's room fail, and the INVITE was answered 500.
 *
 * The carrier is a raw UDP SIP client on 127.0.0.1, so the test chooses the Call-ID, branches and tags.
 */

const TRUNK_NUMBER = "+14155550100";
const CALLER = "+14155551234";

let llm: ScriptedLlm;
let sip: SipApp;
let t: TestApp;
let carrier: Carrier | null = null;
let probe: MediaProbe | null = null;

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Happy to help." }));
  sip = await startSipApp(llm, { first_message: "Hello, you have reached the front desk." });
  ({ t } = sip);
});
afterAll(async () => {
  carrier?.close();
  probe?.close();
  await t.close();
  await llm.close();
});

interface Invite {
  callId: string;
  fromTag: string;
  branch: string;
}

interface Carrier {
  /** Sends an INVITE to the trunk number (retransmitted until answered); resolves with its final response. */
  invite(invite: Invite, sdp: string): Promise<SipResponse>;
  /** Resolves with the next BYE Parley sends (already answered 200). */
  nextBye(): Promise<SipRequest>;
  /** Hangs up the dialog Parley's 2xx `answer` set up; resolves with Parley's final response. */
  bye(invite: Invite, answer: SipResponse): Promise<SipResponse>;
  close(): void;
}

const newBranch = () => `z9hG4bK${randomUUID().replaceAll("-", "")}`;
const topBranch = (message: SipResponse) => /;branch=([^;]+)/.exec(message.headers.get("via") ?? "")?.[1] ?? "";

/**
 * A trunk carrier as a bare UDP socket: INVITEs retransmitted like RFC 3261 Timer A until the first
 * response, every 2xx ACKed (a new transaction, §13.2.2.4), every other final ACKed on the INVITE's
 * branch (§17.1.1.3), and Parley's BYEs answered 200.
 */
async function startCarrier(sipPort: number): Promise<Carrier> {
  const socket: Socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  const send = (message: SipRequest | SipResponse, to = { port: sipPort, address: "127.0.0.1" }) =>
    socket.send(serializeMessage(message), to.port, to.address);
  const invites = new Map<string, { request: SipRequest; answered(): void; done(r: SipResponse): void }>();
  const byes: SipRequest[] = [];
  const finals = new Map<string, (response: SipResponse) => void>();
  let byeArrived: (() => void) | null = null;

  function ack(invite: SipRequest, response: SipResponse, branch: string) {
    const ok = response.status < 300;
    send({
      kind: "request",
      method: "ACK",
      // A 2xx's ACK goes to the answerer's Contact; a failure's ACK to where the INVITE went.
      uri: ok ? (/<([^>]+)>/.exec(response.headers.get("contact") ?? "")?.[1] ?? invite.uri) : invite.uri,
      headers: new SipHeaders([
        ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=${ok ? newBranch() : branch};rport`],
        ["Max-Forwards", "70"],
        ["From", invite.headers.get("from") ?? ""],
        ["To", response.headers.get("to") ?? ""],
        ["Call-ID", invite.headers.get("call-id") ?? ""],
        ["CSeq", "1 ACK"],
      ]),
      body: Buffer.alloc(0),
    });
  }

  socket.on("message", (data, from) => {
    const message = parseMessage(data);
    if (message.kind === "request") {
      if (message.method !== "BYE") return;
      send(createResponse(message, 200), from);
      byes.push(message);
      byeArrived?.();
      return;
    }
    const branch = topBranch(message);
    if (message.status >= 200) finals.get(branch)?.(message);
    const pending = invites.get(branch);
    if (!pending) return;
    pending.answered();
    if (message.status < 200) return;
    // Retransmitted finals are ACKed again, as a real UAC would.
    ack(pending.request, message, branch);
    pending.done(message);
  });

  return {
    invite({ callId, fromTag, branch }, sdp) {
      const request: SipRequest = {
        kind: "request",
        method: "INVITE",
        uri: `sip:${TRUNK_NUMBER}@127.0.0.1:${sipPort}`,
        headers: new SipHeaders([
          ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=${branch};rport`],
          ["Max-Forwards", "70"],
          ["From", `<sip:${CALLER}@carrier.test>;tag=${fromTag}`],
          ["To", `<sip:${TRUNK_NUMBER}@parley.test>`],
          ["Call-ID", callId],
          ["CSeq", "1 INVITE"],
          ["Contact", `<sip:carrier@127.0.0.1:${port}>`],
          ["Content-Type", "application/sdp"],
        ]),
        body: Buffer.from(sdp, "utf8"),
      };
      return new Promise((resolve, reject) => {
        let interval = 500;
        let timer: NodeJS.Timeout | undefined;
        let settled = false;
        const transmit = () => {
          send(request);
          interval = Math.min(interval * 2, 4000);
          timer = setTimeout(transmit, interval);
        };
        const giveUp = setTimeout(() => {
          clearTimeout(timer);
          reject(new Error(`no final answer to the INVITE on branch ${branch}`));
        }, 30_000);
        invites.set(branch, {
          request,
          answered: () => clearTimeout(timer),
          done: (response) => {
            if (settled) return;
            settled = true;
            clearTimeout(giveUp);
            resolve(response);
          },
        });
        transmit();
      });
    },
    async nextBye() {
      const seen = byes.length;
      await new Promise<void>((resolve, reject) => {
        const giveUp = setTimeout(() => reject(new Error("Parley sent no BYE")), 30_000);
        const check = () => {
          if (byes.length <= seen) return;
          clearTimeout(giveUp);
          byeArrived = null;
          resolve();
        };
        byeArrived = check;
        check();
      });
      return byes[seen] as SipRequest;
    },
    bye({ callId, fromTag }, answer) {
      const branch = newBranch();
      const done = new Promise<SipResponse>((resolve, reject) => {
        const giveUp = setTimeout(() => reject(new Error("no answer to the BYE")), 30_000);
        finals.set(branch, (response) => {
          clearTimeout(giveUp);
          resolve(response);
        });
      });
      send({
        kind: "request",
        method: "BYE",
        uri: /<([^>]+)>/.exec(answer.headers.get("contact") ?? "")?.[1] ?? `sip:${TRUNK_NUMBER}@127.0.0.1:${sipPort}`,
        headers: new SipHeaders([
          ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=${branch};rport`],
          ["Max-Forwards", "70"],
          ["From", `<sip:${CALLER}@carrier.test>;tag=${fromTag}`],
          ["To", answer.headers.get("to") ?? ""],
          ["Call-ID", callId],
          ["CSeq", "2 BYE"],
        ]),
        body: Buffer.alloc(0),
      });
      return done;
    },
    close: () => socket.close(),
  };
}

/** The workspace's call logs, as the API lists them. */
async function listedCalls(): Promise<{ id: string; status: string }[]> {
  const res = await call(t, "GET", "/api/v1/call-logs", { token: sip.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { id: string; status: string }[] }>().data;
}

describe("a repeated SIP INVITE", () => {
  it("naming the Call-ID of a call in progress is refused with 482 and a warning, and the call is logged once", async () => {
    const sipPort = sipRuntimeOf(t.ctx)?.port;
    if (!sipPort) throw new Error("SIP is not running");
    await sip.inboundTrunkNumber(TRUNK_NUMBER, 5999);
    probe = new MediaProbe();
    const sdp = sdpFor(await probe.open());
    carrier = await startCarrier(sipPort);
    const callId = `${randomUUID()}@carrier.test`;

    const first = await carrier.invite({ callId, fromTag: "first", branch: newBranch() }, sdp);
    expect(first.status, `${first.status} ${first.reason}`).toBe(200);
    const logId = await sip.newestCall();

    const warn = vi.spyOn(t.ctx.calls.log, "warn");
    try {
      // Same Call-ID, new transaction (branch) and new From tag: a new out-of-dialog INVITE.
      const repeat = await carrier.invite({ callId, fromTag: "second", branch: newBranch() }, sdp);
      expect(repeat.status, `${repeat.status} ${repeat.reason}`).toBe(482);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ sipCallId: callId }),
        "SIP INVITE repeats a call already logged",
      );
    } finally {
      warn.mockRestore();
    }

    // Still one call, the first, under that Call-ID.
    expect((await listedCalls()).map((c) => c.id)).toEqual([logId]);
    expect((await findCallByCarrierId(t.ctx.db, "sip_trunk", callId))?.id).toBe(logId);

    // The first call runs on: the carrier's BYE on its dialog still reaches it (before, the refused
    // INVITE took over the Call-ID and the BYE was answered 481).
    const firstDialog = { callId, fromTag: "first", branch: "" };
    const hungUp = await carrier.bye(firstDialog, first);
    expect(hungUp.status, `${hungUp.status} ${hungUp.reason}`).toBe(200);
    await sip.closedLog(logId);
    expect((await listedCalls()).map((c) => c.id)).toEqual([logId]);
  }, 60_000);
});
