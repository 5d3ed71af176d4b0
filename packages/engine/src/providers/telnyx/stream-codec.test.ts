import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../audio/mulaw.ts";
import { TelnyxStreamCodec } from "./stream-codec.ts";

/** Frames as Telnyx's media streaming reference shows them. */
const start = {
  event: "start",
  sequence_number: "1",
  stream_id: "32DE0DEA-53CB-4B21-89A4-9E1819C043BC",
  start: {
    user_id: "3E6F995F-85F7-4705-9741-53B116D28237",
    call_control_id: "v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ",
    call_session_id: "ff55a038-6f5d-11ef-9692-02420aeffb1f",
    from: "+13122010094",
    to: "+13122123456",
    client_state: "aGF2ZSBhIG5pY2UgZGF5ID1d",
    custom_parameters: { customer_id: "customer_123" },
    media_format: { encoding: "PCMU", sample_rate: 8000, channels: 1 },
  },
};

describe("Telnyx stream codec", () => {
  it("decodes the documented frames", () => {
    const codec = new TelnyxStreamCodec();
    expect(codec.decode(JSON.stringify({ event: "connected", version: "1.0.0" }), false)).toEqual([
      { type: "connected" },
    ]);
    expect(codec.decode(JSON.stringify(start), false)).toEqual([
      {
        type: "start",
        providerCallId: start.start.call_control_id,
        streamId: start.stream_id,
        parameters: { customer_id: "customer_123" },
      },
    ]);
    const payload = Buffer.from(mulawEncode(new Int16Array(160).fill(1000))).toString("base64");
    const media = {
      event: "media",
      sequence_number: "4",
      media: { track: "inbound", chunk: "2", timestamp: "5", payload },
      stream_id: start.stream_id,
    };
    expect(codec.decode(JSON.stringify(media), false)[0]?.type).toBe("audio");
    const outbound = { ...media, media: { ...media.media, track: "outbound" } };
    expect(codec.decode(JSON.stringify(outbound), false)).toEqual([]);
    const dtmf = {
      event: "dtmf",
      stream_id: start.stream_id,
      occurred_at: "2022-03-25T15:32:14.541Z",
      sequence_number: "5",
      dtmf: { digit: "#" },
    };
    expect(codec.decode(JSON.stringify(dtmf), false)).toEqual([{ type: "dtmf", digit: "#" }]);
    const mark = { event: "mark", sequence_number: "6", stream_id: start.stream_id, mark: { name: "m7" } };
    expect(codec.decode(JSON.stringify(mark), false)).toEqual([{ type: "mark", name: "m7" }]);
    const error = {
      event: "error",
      sequence_number: "7",
      stream_id: start.stream_id,
      payload: { code: 100002, title: "unknown_error" },
    };
    expect(codec.decode(JSON.stringify(error), false)).toEqual([]);
    const stop = {
      event: "stop",
      sequence_number: "8",
      stop: { user_id: "x", call_control_id: "y" },
      stream_id: start.stream_id,
    };
    expect(codec.decode(JSON.stringify(stop), false)).toEqual([{ type: "stop" }]);
  });

  it("encodes media, mark and clear frames", () => {
    const codec = new TelnyxStreamCodec();
    const messages = codec.encodeAudio(new Int16Array(3200).fill(2000));
    expect(messages.length).toBeGreaterThanOrEqual(9);
    const first = JSON.parse(String(messages[0]));
    expect(Object.keys(first)).toEqual(["event", "media"]);
    expect(first.event).toBe("media");
    expect(Buffer.from(first.media.payload, "base64").length).toBe(160);
    expect(JSON.parse(codec.encodeMark("m1"))).toEqual({ event: "mark", mark: { name: "m1" } });
    expect(JSON.parse(codec.encodeClear())).toEqual({ event: "clear" });
  });
});
