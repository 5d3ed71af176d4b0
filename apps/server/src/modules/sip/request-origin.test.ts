import type { Binding, IncomingRequest } from "@parley/sip";
import { SipHeaders } from "@parley/sip";
import { describe, expect, it } from "vitest";
import { bindingOrigin, requestOrigin } from "./request-origin.ts";

const request = (from: string, header?: string): IncomingRequest => ({
  message: {
    kind: "request",
    method: "INVITE",
    uri: "sip:+14155550150@parley.test",
    headers: new SipHeaders(header ? [["X-Parley-Source", header]] : []),
    body: Buffer.alloc(0),
  },
  from: { transport: "udp", address: from, port: 5060 },
  reply: async () => {
    throw new Error("not sent in this test");
  },
});

describe("requestOrigin", () => {
  it("believes X-Parley-Source only from a trusted proxy", () => {
    const trusted = ["10.0.0.10", "192.168.50.0/24"];
    expect(requestOrigin(request("10.0.0.10", "udp:203.0.113.5:5070"), trusted)).toEqual({
      transport: "udp",
      address: "203.0.113.5",
      port: 5070,
    });
    expect(requestOrigin(request("192.168.50.7", "tcp:[2001:db8::1]:5061"), trusted)).toMatchObject({
      transport: "tcp",
      address: "2001:db8::1",
    });
    // A caller naming itself is ignored; so is a proxy's malformed header, or no trusted proxy at all.
    expect(requestOrigin(request("198.51.100.9", "udp:203.0.113.5:5070"), trusted).address).toBe("198.51.100.9");
    expect(requestOrigin(request("10.0.0.10", "203.0.113.5"), trusted).address).toBe("10.0.0.10");
    expect(requestOrigin(request("10.0.0.10", "udp:203.0.113.5:5070"), []).address).toBe("10.0.0.10");
  });
});

describe("bindingOrigin", () => {
  const binding = (source: string, contact: string): Binding => ({
    username: "101",
    domain: "parley.test",
    contact,
    source: { transport: "udp", address: source, port: 5060 },
    expiresAt: new Date(),
  });
  it("is the source, or behind a trusted proxy the host of the registered Contact", () => {
    expect(bindingOrigin(binding("203.0.113.5", "<sip:101@192.168.1.5:5062>"), ["10.0.0.10"])).toBe("203.0.113.5");
    expect(bindingOrigin(binding("10.0.0.10", "sip:101@203.0.113.7:5062;transport=udp"), ["10.0.0.10"])).toBe(
      "203.0.113.7",
    );
    expect(bindingOrigin(binding("10.0.0.10", "<sip:101@203.0.113.8>"), ["10.0.0.10"])).toBe("203.0.113.8");
  });
});
