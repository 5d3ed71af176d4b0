import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { parseMessage, SipHeaders, type SipResponse, serializeMessage } from "./message.ts";
import { createOffer } from "./sdp.ts";
import { UserAgent } from "./user-agent.ts";

/**
 * Behind a proxy that record-routes (Kamailio in deploy/), the caller routes its ACK and BYE by the
 * Record-Route of the responses: the answering side must copy the INVITE's into its 180 and 200.
 */
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

function responses(socket: Socket): SipResponse[] {
  const seen: SipResponse[] = [];
  socket.on("message", (data) => {
    const message = parseMessage(data);
    if (message.kind === "response") seen.push(message);
  });
  return seen;
}

describe("an inbound call through a record-routing proxy", () => {
  it("copies the INVITE's Record-Route into its ringing and its answer", async () => {
    const ua = new UserAgent({ bindHost: "127.0.0.1", publicHost: "127.0.0.1" });
    await ua.listen(0);
    cleanup.push(() => ua.close());
    ua.on("invite", (call) => {
      void call.ring().then(() => call.accept(createOffer({ address: "127.0.0.1", port: 8000 })));
    });
    const socket = createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    cleanup.push(() => {
      socket.close();
    });
    const seen = responses(socket);
    const { port } = socket.address();
    const routes = ["<sip:127.0.0.1:5999;lr;ftag=abc>", "<sip:10.0.0.10;lr>"];
    const headers = new SipHeaders([
      ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK-rr-test;rport`],
      ["Max-Forwards", "70"],
      ["From", "<sip:caller@127.0.0.1>;tag=caller1"],
      ["To", "<sip:1001@127.0.0.1>"],
      ["Call-ID", "record-route-test@127.0.0.1"],
      ["CSeq", "1 INVITE"],
      ["Contact", `<sip:caller@127.0.0.1:${port}>`],
      ...routes.map((route): [string, string] => ["Record-Route", route]),
      ["Content-Type", "application/sdp"],
    ]);
    const body = Buffer.from(createOffer({ address: "127.0.0.1", port: 8002 }));
    socket.send(
      serializeMessage({ kind: "request", method: "INVITE", uri: `sip:1001@127.0.0.1:${ua.port}`, headers, body }),
      ua.port,
      "127.0.0.1",
    );

    const until = Date.now() + 10_000;
    while (!seen.some((r) => r.status === 200) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    for (const status of [180, 200]) {
      const response = seen.find((r) => r.status === status);
      expect(response, `a ${status}`).toBeDefined();
      expect(response?.headers.getAll("record-route")).toEqual(routes);
    }
  });
});
