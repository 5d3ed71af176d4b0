import { createSocket } from "node:dgram";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseDigest } from "./digest.ts";
import { createOffer } from "./sdp.ts";
import { UserAgent } from "./user-agent.ts";

/**
 * How an outbound INVITE's transaction ends when the far end refuses, is silent or is not there
 * (RFC 3261 §17.1.1.2 Timer B, §8.1.3.1 transport errors), and what a trunk's carrier is shown.
 */

const agents: UserAgent[] = [];
const closers: (() => void)[] = [];
async function agent(t1Ms?: number): Promise<UserAgent> {
  const ua = new UserAgent({ bindHost: "127.0.0.1", publicHost: "127.0.0.1", ...(t1Ms ? { t1Ms } : {}) });
  await ua.listen(0);
  agents.push(ua);
  return ua;
}
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const offer = createOffer({ address: "127.0.0.1", port: 8000 });

describe("an outbound INVITE's transaction", () => {
  it("fails with 408 at Timer B (64·T1) when nothing at all answers, though the call may ring 60 s", async () => {
    const silent = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    closers.push(() => silent.close());
    let received = 0;
    silent.on("message", () => {
      received += 1;
    });
    // T1 of 10 ms: Timer B is 640 ms.
    const caller = await agent(10);
    const started = Date.now();
    const result = await caller.dial({
      target: "sip:+14155550123@127.0.0.1",
      peer: { transport: "udp", address: "127.0.0.1", port: silent.address().port },
      from: "sip:+14155550100@127.0.0.1",
      sdp: offer,
      ringTimeoutMs: 60_000,
    });
    expect(result).toMatchObject({ status: 408, reason: "Request Timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    // Retransmitted (timer A) until Timer B fired.
    expect(received).toBeGreaterThan(3);
  }, 10_000);

  it("keeps ringing past Timer B once the far end has answered provisionally", async () => {
    const callee = await agent();
    callee.on("invite", (call) => {
      void call.ring();
      // Busy after three Timer B's worth of ringing.
      const later = setTimeout(() => void call.reject(486), 2_000);
      closers.push(() => clearTimeout(later));
    });
    const caller = await agent(10);
    const result = await caller.dial({
      target: "sip:1001@127.0.0.1",
      peer: { transport: "udp", address: "127.0.0.1", port: callee.port },
      from: "sip:1002@127.0.0.1",
      sdp: offer,
      ringTimeoutMs: 60_000,
    });
    expect(result).toMatchObject({ status: 486 });
  });

  it("fails with 503 at once when the TCP connection is refused", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!address || typeof address === "string") throw new Error("no TCP port");
    const caller = await agent();
    const started = Date.now();
    const result = await caller.dial({
      target: "sip:+14155550123@127.0.0.1",
      peer: { transport: "tcp", address: "127.0.0.1", port: address.port },
      from: "sip:+14155550100@127.0.0.1",
      sdp: offer,
    });
    expect(result).toMatchObject({ status: 503, reason: "Service Unavailable" });
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 10_000);

  it("asserts the caller's identity (RFC 3325) and answers a challenge with the login, not From's user", async () => {
    const carrier = await agent();
    const seen: { from: string; asserted: string; username: string }[] = [];
    carrier.on("invite", (call) => {
      const headers = call.request.headers;
      const auth = parseDigest(headers.get("proxy-authorization") ?? "");
      seen.push({
        from: headers.get("from") ?? "",
        asserted: headers.get("p-asserted-identity") ?? "",
        username: auth?.username ?? "",
      });
      const challenge: [string, string] = ["Proxy-Authenticate", 'Digest realm="carrier", nonce="n1", algorithm=MD5'];
      void (auth ? call.reject(603) : call.reject(407, { headers: [challenge] }));
    });
    const caller = await agent();
    const result = await caller.dial({
      target: "sip:+14155550123@127.0.0.1",
      peer: { transport: "udp", address: "127.0.0.1", port: carrier.port },
      from: "sip:+14155550100@127.0.0.1",
      assertedIdentity: "sip:+14155550100@127.0.0.1",
      credentials: { username: "trunklogin", password: "pw" },
      sdp: offer,
    });
    expect(result.status).toBe(603);
    expect(seen).toHaveLength(2);
    for (const invite of seen) {
      expect(invite.from).toMatch(/^<sip:\+14155550100@127\.0\.0\.1>;tag=/);
      expect(invite.asserted).toBe("<sip:+14155550100@127.0.0.1>");
    }
    expect(seen[1]?.username).toBe("trunklogin");
  });
});
