import dns from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebrtcAudioLeg } from "./audio-leg.ts";

/**
 * werift falls back to stun.l.google.com when a peer connection is given no STUN server, and the
 * answer's SDP then waits for that server (5 s where it does not answer). A leg told to ask none
 * must not even look the host up.
 */
describe("a WebRTC leg given no STUN server", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks no STUN server of werift's own", async () => {
    const hosts: string[] = [];
    const record = (host: unknown) => {
      hosts.push(String(host));
    };
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((host: string, ...rest: unknown[]) => {
      record(host);
      return (lookup as (...args: unknown[]) => unknown)(host, ...rest);
    }) as typeof dns.lookup);
    const promisesLookup = dns.promises.lookup;
    vi.spyOn(dns.promises, "lookup").mockImplementation(((host: string, ...rest: unknown[]) => {
      record(host);
      return (promisesLookup as (...args: unknown[]) => Promise<unknown>)(host, ...rest);
    }) as typeof dns.promises.lookup);

    const caller = await WebrtcAudioLeg.offer({ iceServers: [], extraHostAddresses: ["127.0.0.1"] });
    const callee = await WebrtcAudioLeg.answer(caller.sdp, { iceServers: [], extraHostAddresses: ["127.0.0.1"] });
    try {
      expect(callee.sdp).toContain("a=candidate");
      expect(hosts.filter((host) => host.includes("google"))).toEqual([]);
    } finally {
      await caller.leg.close();
      await callee.leg.close();
    }
  }, 30_000);
});
