import { randomUUID } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { answerChallenge, parseMessage, SipHeaders, type SipResponse, serializeMessage } from "@parley/sip";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { rtpWindow } from "./support/sip-peers.ts";

/**
 * Issue 25 item 12: REGISTER password guessing is limited per extension (5 failed digests a minute)
 * and per source address (20 a minute); a blocked attempt gets 503 with Retry-After. Phones at other
 * addresses, other extensions and the extension's own registered phone keep registering.
 *
 * The phones below are raw UDP clients on loopback addresses (127.0.0.x, all of them this machine's
 * loopback interface): the limit is per source address, so telling sources apart needs several.
 */

const DOMAIN = "limits.example.test";
let t: TestApp;
let token: string;
let sipPort = 0;
const phones: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ HOST: "127.0.0.1", SIP_PORT: "0", SIP_HOST: "127.0.0.1", ...rtpWindow() });
  token = (await signedInUser(t)).token;
  sipPort = sipRuntimeOf(t.ctx)?.port ?? 0;
});
afterAll(async () => {
  for (const socket of phones) socket.close();
  await t.close();
});

async function createExtension(ext: string): Promise<string> {
  const res = await call(t, "POST", "/api/v1/phone-numbers/extensions", { token, body: { ext, domain: DOMAIN } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ sip: { password: string } }>().sip.password;
}

interface Phone {
  /** ip:port the registrar sees. */
  source: string;
  /** One REGISTER transaction pair: unauthenticated, then answering the challenge. The final answer. */
  register(user: string, password: string): Promise<SipResponse>;
}

/** A UDP SIP client bound to `address`, retransmitting like RFC 3261 Timer E until it has an answer. */
async function phoneAt(address: string): Promise<Phone> {
  const socket = createSocket("udp4");
  phones.push(socket);
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  const { port } = socket.address();
  const waiting = new Map<string, (response: SipResponse) => void>();
  socket.on("message", (data) => {
    const message = parseMessage(data);
    if (message.kind !== "response" || message.status < 200) return;
    const key = `${message.headers.get("call-id")} ${message.headers.get("cseq")}`;
    waiting.get(key)?.(message);
    waiting.delete(key);
  });

  function send(user: string, callId: string, cseq: number, authorization?: string): Promise<SipResponse> {
    const headers = new SipHeaders([
      ["Via", `SIP/2.0/UDP ${address}:${port};branch=z9hG4bK${randomUUID().replaceAll("-", "")};rport`],
      ["Max-Forwards", "70"],
      ["From", `<sip:${user}@${DOMAIN}>;tag=${callId.slice(0, 8)}`],
      ["To", `<sip:${user}@${DOMAIN}>`],
      ["Call-ID", callId],
      ["CSeq", `${cseq} REGISTER`],
      ["Contact", `<sip:${user}@${address}:${port}>`],
      ["Expires", "300"],
      ...(authorization ? ([["Authorization", authorization]] as [string, string][]) : []),
    ]);
    const data = serializeMessage({
      kind: "request",
      method: "REGISTER",
      uri: `sip:${DOMAIN}`,
      headers,
      body: Buffer.alloc(0),
    });
    return new Promise((resolve, reject) => {
      let interval = 500;
      let timer: NodeJS.Timeout;
      const transmit = () => {
        socket.send(data, sipPort, "127.0.0.1");
        interval = Math.min(interval * 2, 4000);
        timer = setTimeout(transmit, interval);
      };
      const giveUp = setTimeout(() => {
        clearTimeout(timer);
        reject(new Error(`no answer to REGISTER ${user} from ${address}:${port}`));
      }, 30_000);
      waiting.set(`${callId} ${cseq} REGISTER`, (response) => {
        clearTimeout(timer);
        clearTimeout(giveUp);
        resolve(response);
      });
      transmit();
    });
  }

  return {
    source: `${address}:${port}`,
    async register(user, password) {
      const callId = randomUUID();
      const first = await send(user, callId, 1);
      const challenge = first.headers.get("www-authenticate");
      if (first.status !== 401 || !challenge) return first;
      const answer = answerChallenge(
        challenge,
        { username: user, password },
        { method: "REGISTER", uri: `sip:${DOMAIN}` },
      );
      return send(user, callId, 2, answer ?? undefined);
    },
  };
}

/** Statuses of `n` REGISTERs in a row, counted: e.g. { 403: 5, 503: 75 }. */
async function registerMany(phone: Phone, user: string, password: (i: number) => string, n: number) {
  const counts: Record<number, number> = {};
  for (let i = 0; i < n; i += 1) {
    const { status } = await phone.register(user, password(i));
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

describe("REGISTER rate limits", () => {
  it("turn an extension away after 5 wrong passwords a minute, but not its registered phone or other extensions", async () => {
    const password = await createExtension("5001");
    const otherPassword = await createExtension("5002");
    const deskPhone = await phoneAt("127.0.0.1");
    expect((await deskPhone.register("5001", password)).status).toBe(200);
    const warn = vi.spyOn(t.ctx.calls.log, "warn");

    // 80 wrong passwords from one address, as the probe sent them: 5 are checked, the rest turned away.
    const guesser = await phoneAt("127.0.0.2");
    expect(await registerMany(guesser, "5001", (i) => `guess-${i}`, 80)).toEqual({ 403: 5, 503: 75 });
    const blocked = await guesser.register("5001", password);
    expect(blocked.status).toBe(503);
    expect(blocked.reason).toBe("Too Many Failed Attempts");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(60);

    // A phone at another address with the right password waits too; the registered desk phone does not.
    const newPhone = await phoneAt("127.0.0.3");
    expect((await newPhone.register("5001", password)).status).toBe(503);
    expect((await deskPhone.register("5001", password)).status).toBe(200);
    // Another extension from another address is not touched.
    expect((await newPhone.register("5002", otherPassword)).status).toBe(200);

    const failures = warn.mock.calls.filter(([, message]) => message === "SIP REGISTER failed digest authentication");
    expect(failures.map(([fields]) => fields)).toEqual(
      [1, 2, 3, 4, 5].map((n) =>
        expect.objectContaining({
          extension: `5001@${DOMAIN}`,
          source: guesser.source,
          extensionFailures: n,
          sourceFailures: n,
        }),
      ),
    );
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ extension: `5001@${DOMAIN}`, source: guesser.source, blockedSeconds: 60 }),
      "SIP REGISTER blocked for the extension: too many failed digest authentications",
    );
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/guess-|response=/);
    warn.mockRestore();

    // After the back-off the extension takes registrations again.
    t.clock.advance(61);
    expect((await newPhone.register("5001", password)).status).toBe(200);
  }, 120_000);

  it("turn a source address away after 20 wrong passwords a minute, whichever extensions it names", async () => {
    const password = await createExtension("5101");
    const guesser = await phoneAt("127.0.0.4");
    // Four guesses at each of five extensions: under the per-extension limit, at the per-source one.
    for (const ext of ["5101", "5102", "5103", "5104", "5105"]) {
      expect(await registerMany(guesser, ext, (i) => `guess-${i}`, 4)).toEqual({ 403: 4 });
    }
    const blocked = await guesser.register("5106", "guess");
    expect(blocked.status).toBe(503);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The address is blocked whatever port it sends from, even with the right password.
    expect((await (await phoneAt("127.0.0.4")).register("5101", password)).status).toBe(503);
    // Another address registers the same extension.
    expect((await (await phoneAt("127.0.0.5")).register("5101", password)).status).toBe(200);
  }, 120_000);
});
