import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../audio/mulaw.ts";
import { PlivoStreamCodec, streamParameters } from "./stream-codec.ts";

/** Events as Plivo's audio streaming page shows them. */
const start = {
  event: "start",
  sequenceNumber: 1,
  start: {
    callId: "12345678-1234-1234-1234-123456789abc",
    streamId: "87654321-4321-4321-4321-cba987654321",
    accountId: "MAXXXXXXXXXXXXXXXXXX",
    tracks: ["inbound"],
    mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000 },
  },
  extra_headers: "callZ5Fid=cZ2D1;userId=12345",
};

describe("Plivo stream codec", () => {
  it("decodes start, media, dtmf, playedStream and stop", () => {
    const codec = new PlivoStreamCodec();
    expect(codec.decode(JSON.stringify(start), false)).toEqual([
      {
        type: "start",
        providerCallId: start.start.callId,
        streamId: start.start.streamId,
        parameters: { call_id: "c-1", userId: "12345" },
      },
    ]);
    const payload = Buffer.from(mulawEncode(new Int16Array(160).fill(1000))).toString("base64");
    const media = {
      event: "media",
      sequenceNumber: 2,
      streamId: start.start.streamId,
      media: { track: "inbound", timestamp: "1700000000000", chunk: 1, payload },
      extra_headers: start.extra_headers,
    };
    expect(codec.decode(JSON.stringify(media), false)[0]?.type).toBe("audio");
    const dtmf = {
      event: "dtmf",
      sequenceNumber: 3,
      streamId: start.start.streamId,
      dtmf: { track: "inbound", digit: "5", timestamp: "1" },
    };
    expect(codec.decode(JSON.stringify(dtmf), false)).toEqual([{ type: "dtmf", digit: "5" }]);
    const played = {
      event: "playedStream",
      sequenceNumber: 4,
      streamId: start.start.streamId,
      name: "customer greeting audio",
    };
    expect(codec.decode(JSON.stringify(played), false)).toEqual([{ type: "mark", name: "customer greeting audio" }]);
    expect(codec.decode(JSON.stringify({ event: "clearedAudio", sequenceNumber: 5, streamId: "s" }), false)).toEqual(
      [],
    );
    expect(codec.decode(JSON.stringify({ event: "stop", sequenceNumber: 6, streamId: "s" }), false)).toEqual([
      { type: "stop" },
    ]);
  });

  it("reads extra headers in each documented form", () => {
    expect(streamParameters("test1=12,test2=123")).toEqual({ test1: "12", test2: "123" });
    expect(streamParameters('{"test1":"12"}')).toEqual({ test1: "12" });
    expect(streamParameters("callZ5Fid=cZ2D1,token=aZ2EbZ5F")).toEqual({ call_id: "c-1", token: "a.b_" });
    // A Z not followed by two hex digits is an ordinary letter.
    expect(streamParameters("Zone=ZZ1")).toEqual({ Zone: "ZZ1" });
    expect(streamParameters(undefined)).toEqual({});
  });

  it("encodes playAudio, checkpoint and clearAudio", () => {
    const codec = new PlivoStreamCodec();
    codec.decode(JSON.stringify(start), false);
    const [first] = codec.encodeAudio(new Int16Array(3200).fill(2000));
    const parsed = JSON.parse(String(first));
    expect(parsed.event).toBe("playAudio");
    expect(parsed.media.contentType).toBe("audio/x-mulaw");
    expect(parsed.media.sampleRate).toBe(8000);
    expect(Buffer.from(parsed.media.payload, "base64").length).toBe(160);
    expect(JSON.parse(codec.encodeMark("m1"))).toEqual({
      event: "checkpoint",
      streamId: start.start.streamId,
      name: "m1",
    });
    expect(JSON.parse(codec.encodeClear())).toEqual({ event: "clearAudio", streamId: start.start.streamId });
  });
});
