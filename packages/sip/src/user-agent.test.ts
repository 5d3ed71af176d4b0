import { afterEach, describe, expect, it } from "vitest";
import type { CallEnd } from "./call-leg.ts";
import { createNonceIssuer, digestHa1, parseDigest, verifyDigest } from "./digest.ts";
import { RegisterClient } from "./register-client.ts";
import { type Binding, handleRegister } from "./registrar.ts";
import { createOffer } from "./sdp.ts";
import type { TransportName } from "./transport.ts";
import { UserAgent } from "./user-agent.ts";

const agents: UserAgent[] = [];
async function agent(): Promise<UserAgent> {
  const ua = new UserAgent({ bindHost: "127.0.0.1", publicHost: "127.0.0.1" });
  await ua.listen(0);
  agents.push(ua);
  return ua;
}
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

function memoryStore() {
  const bindings: Binding[] = [];
  return {
    bindings,
    async save(b: Binding) {
      const i = bindings.findIndex((x) => x.contact === b.contact);
      if (i >= 0) bindings.splice(i, 1);
      bindings.push(b);
    },
    async remove(username: string, domain: string, contact: string | null) {
      for (let i = bindings.length - 1; i >= 0; i -= 1) {
        const b = bindings[i];
        if (b && b.username === username && b.domain === domain && (contact === null || b.contact === contact))
          bindings.splice(i, 1);
      }
    },
    async list(username: string, domain: string) {
      return bindings.filter((b) => b.username === username && b.domain === domain);
    },
  };
}

describe.each<TransportName>(["udp", "tcp"])("user agents over %s", (transport) => {
  it("registers with digest auth, refuses a wrong password, and unregisters", async () => {
    const registrar = await agent();
    const phone = await agent();
    const store = memoryStore();
    const nonces = createNonceIssuer("k");
    registrar.on(
      "register",
      (request) =>
        void handleRegister(request, {
          store,
          nonces,
          ha1: async (user, domain) => (user === "1001" ? digestHa1("1001", domain, "secret") : null),
        }),
    );
    const peer = { transport, address: "127.0.0.1", port: registrar.port };
    const client = new RegisterClient(phone.stack, {
      registrar: peer,
      domain: "example.test",
      username: "1001",
      password: "secret",
      expires: 120,
    });
    const response = await client.start();
    expect(response.status).toBe(200);
    expect(store.bindings).toHaveLength(1);
    expect(store.bindings[0]?.source.transport).toBe(transport);
    const wrong = new RegisterClient(phone.stack, {
      registrar: peer,
      domain: "example.test",
      username: "1001",
      password: "bad",
    });
    expect((await wrong.register()).status).toBe(403);
    await client.stop();
    expect(store.bindings).toHaveLength(0);
  });

  it("places a call through a digest challenge, carries BYE, and transfers by REFER", async () => {
    const carrier = await agent();
    const parley = await agent();
    const nonces = createNonceIssuer("k");
    const ended: CallEnd[] = [];
    let referTo = "";
    carrier.on("invite", (call) => {
      const auth = parseDigest(call.request.headers.get("proxy-authorization") ?? "");
      const ha1 = digestHa1("trunk", "carrier", "pw");
      if (!auth || verifyDigest(auth, { method: "INVITE", realm: "carrier", ha1 }, nonces) !== "ok") {
        void call.reject(407, { headers: [["Proxy-Authenticate", nonces.challenge("carrier")]] });
        return;
      }
      call.on("ended", (reason) => ended.push(reason));
      void call.ring().then(() => call.accept(createOffer({ address: "127.0.0.1", port: 7000 })));
      // The carrier accepts transfers: 202, then NOTIFY 200 in a sipfrag, then BYE.
      call.handle = async (request) => {
        if (request.message.method !== "REFER") return Object.getPrototypeOf(call).handle.call(call, request);
        referTo = request.message.headers.get("refer-to") ?? "";
        await request.reply(202);
        await call.dialog?.request(
          "NOTIFY",
          [
            ["Event", "refer"],
            ["Subscription-State", "terminated;reason=noresource"],
          ],
          {
            type: "message/sipfrag;version=2.0",
            content: "SIP/2.0 200 OK\r\n",
          },
        );
      };
    });
    const result = await parley.dial({
      target: "sip:+14155550123@127.0.0.1",
      peer: { transport, address: "127.0.0.1", port: carrier.port },
      from: "sip:+14155550100@127.0.0.1",
      credentials: { username: "trunk", password: "pw" },
      sdp: createOffer({ address: "127.0.0.1", port: 8000 }),
    });
    expect(result.status).toBe(200);
    expect(result.call.remoteSdp).toContain("m=audio 7000");
    expect(await result.call.refer("sip:+442071234567@127.0.0.1")).toBe("transferred");
    expect(referTo).toBe("<sip:+442071234567@127.0.0.1>");
    await result.call.hangup();
    await waitFor(() => ended.length === 1);
    expect(ended).toEqual(["remote_bye"]);
  });

  it("cancels a call that rings too long", async () => {
    const callee = await agent();
    const caller = await agent();
    callee.on("invite", (call) => void call.ring());
    const result = await caller.dial({
      target: "sip:1001@127.0.0.1",
      peer: { transport, address: "127.0.0.1", port: callee.port },
      from: "sip:1002@127.0.0.1",
      sdp: createOffer({ address: "127.0.0.1", port: 8000 }),
      ringTimeoutMs: 300,
    });
    expect(result.status).toBe(487);
  });

  it("ends an unanswered call the caller cancels with 487", async () => {
    const callee = await agent();
    const caller = await agent();
    const ended: CallEnd[] = [];
    callee.on("invite", (call) => {
      call.on("ended", (reason) => ended.push(reason));
      void call.ring();
    });
    let cancel: (() => Promise<void>) | null = null;
    const placing = caller.dial({
      target: "sip:1001@127.0.0.1",
      peer: { transport, address: "127.0.0.1", port: callee.port },
      from: "sip:1002@127.0.0.1",
      sdp: createOffer({ address: "127.0.0.1", port: 8000 }),
      onProvisional: (response) => {
        if (response.status === 180) void cancel?.();
      },
    });
    await waitFor(() => caller.calls.size === 1);
    const call = [...caller.calls.values()][0];
    cancel = () => (call && "cancel" in call && typeof call.cancel === "function" ? call.cancel() : Promise.resolve());
    const result = await placing;
    expect(result.status).toBe(487);
    await waitFor(() => ended.length === 1);
    expect(ended).toEqual(["cancelled"]);
  });
});
