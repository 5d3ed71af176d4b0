import { describe, expect, it } from "vitest";
import { g711Decode, g711Encode } from "./g711.ts";
import { parseDtmf, parseRtp, serializeDtmf, serializeRtp } from "./rtp-packet.ts";
import { RtpSession } from "./rtp-session.ts";
import { agreementFrom, createAnswer, createOffer, parseSdp } from "./sdp.ts";

const range = { host: "127.0.0.1", portMin: 42000 + Math.floor(Math.random() * 2000) * 2, portMax: 0 };
range.portMax = range.portMin + 200;

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("G.711", () => {
  it.each(["PCMU", "PCMA"] as const)("%s keeps a tone within a few percent", (codec) => {
    const pcm = Int16Array.from({ length: 160 }, (_, i) => Math.round(12000 * Math.sin(i / 3)));
    const back = g711Decode(codec, g711Encode(codec, pcm));
    for (let i = 0; i < pcm.length; i += 1) expect(Math.abs((back[i] ?? 0) - (pcm[i] ?? 0))).toBeLessThan(700);
  });
});

describe("SDP", () => {
  it("answers an offer with the peer's first G.711 codec and its telephone-event type", () => {
    const offer = parseSdp(
      "v=0\r\nc=IN IP4 10.0.0.9\r\nm=audio 4000 RTP/AVP 9 8 0 96\r\na=rtpmap:96 telephone-event/8000\r\n",
    );
    const answer = createAnswer(offer, { address: "127.0.0.1", port: 5000 });
    expect(answer?.agreement).toEqual({
      codec: "PCMA",
      payloadType: 8,
      dtmfPayloadType: 96,
      remote: { address: "10.0.0.9", port: 4000 },
    });
    expect(answer?.sdp).toContain("m=audio 5000 RTP/AVP 8 96");
  });

  it("offers PCMU, PCMA and telephone-event 101", () => {
    const agreement = agreementFrom(parseSdp(createOffer({ address: "127.0.0.1", port: 6000 })));
    expect(agreement).toMatchObject({ codec: "PCMU", dtmfPayloadType: 101, remote: { port: 6000 } });
  });

  it("refuses an offer without G.711", () => {
    expect(
      createAnswer(parseSdp("v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 4000 RTP/AVP 9\r\n"), { address: "x", port: 1 }),
    ).toBeNull();
  });
});

describe("RTP", () => {
  it("round-trips packets and RFC 4733 events", () => {
    const packet = {
      marker: true,
      payloadType: 0,
      sequence: 65535,
      timestamp: 123,
      ssrc: 99,
      payload: Buffer.from([1, 2]),
    };
    expect(parseRtp(serializeRtp(packet))).toEqual(packet);
    expect(parseDtmf(serializeDtmf({ digit: "#", end: true, volume: 10, duration: 800 }))).toEqual({
      digit: "#",
      end: true,
      volume: 10,
      duration: 800,
    });
  });

  it("carries paced audio and one DTMF digit per event between two sessions", async () => {
    const a = await RtpSession.open(range);
    const b = await RtpSession.open(range);
    const received: Int16Array[] = [];
    const digits: string[] = [];
    b.on("audio", (pcm) => received.push(pcm));
    b.on("dtmf", (d) => digits.push(d));
    a.configure({
      codec: "PCMU",
      payloadType: 0,
      dtmfPayloadType: 101,
      remote: { address: "127.0.0.1", port: b.port },
    });
    b.configure({
      codec: "PCMU",
      payloadType: 0,
      dtmfPayloadType: 101,
      remote: { address: "127.0.0.1", port: a.port },
    });
    a.sendAudio(Int16Array.from({ length: 800 }, (_, i) => Math.round(8000 * Math.sin(i / 4))));
    a.sendDtmf("5");
    a.sendDtmf("9");
    await waitFor(() => digits.length === 2 && received.length === 5);
    expect(digits).toEqual(["5", "9"]);
    expect(Math.max(...received.flatMap((f) => [...f]))).toBeGreaterThan(4000);
    a.close();
    b.close();
  });

  it("reorders packets that arrive out of order and skips a lost one", async () => {
    const b = await RtpSession.open(range);
    const got: number[] = [];
    b.on("audio", (pcm) => got.push(pcm[0] ?? 0));
    b.configure({ codec: "PCMU", payloadType: 0, dtmfPayloadType: null, remote: { address: "127.0.0.1", port: 9 } });
    const { createSocket } = await import("node:dgram");
    const sender = createSocket("udp4");
    const send = (sequence: number, value: number) =>
      new Promise<void>((resolve) =>
        sender.send(
          serializeRtp({
            marker: false,
            payloadType: 0,
            sequence,
            timestamp: sequence * 160,
            ssrc: 7,
            payload: g711EncodeValue(value),
          }),
          b.port,
          "127.0.0.1",
          () => resolve(),
        ),
      );
    await send(10, 1000);
    await send(12, 3000);
    await send(11, 2000);
    // 13 is lost; 14, 15 and 16 arrive and push past it.
    await send(14, 5000);
    await send(15, 6000);
    await send(16, 7000);
    await waitFor(() => got.length === 6);
    expect(got.map((v) => Math.round(v / 1000))).toEqual([1, 2, 3, 5, 6, 7]);
    // Once the peer is known, packets from another address are dropped.
    const stranger = createSocket("udp4");
    await new Promise<void>((resolve) =>
      stranger.send(
        serializeRtp({
          marker: false,
          payloadType: 0,
          sequence: 17,
          timestamp: 17 * 160,
          ssrc: 7,
          payload: g711EncodeValue(9000),
        }),
        b.port,
        "127.0.0.1",
        () => resolve(),
      ),
    );
    await send(17, 8000);
    await waitFor(() => got.length === 7);
    expect(Math.round((got[6] ?? 0) / 1000)).toBe(8);
    stranger.close();
    sender.close();
    b.close();
  });
});

function g711EncodeValue(value: number): Buffer {
  return g711Encode("PCMU", new Int16Array(160).fill(value));
}
