import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../audio/mulaw.ts";
import { rms } from "../../audio/pcm.ts";
import { TwilioStreamCodec } from "./stream-codec.ts";

/** Messages as Twilio's Media Streams page shows them. */
const connected = { event: "connected", protocol: "Call", version: "1.0.0" };
const start = {
  event: "start",
  sequenceNumber: "1",
  start: {
    accountSid: "AC123",
    streamSid: "MZ18ad3ab5a668481ce02b83e7395059f0",
    callSid: "CA123",
    tracks: ["inbound"],
    mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
    customParameters: { call_id: "c1", FirstName: "Jane" },
  },
  streamSid: "MZ18ad3ab5a668481ce02b83e7395059f0",
};

function tone(samples: number, rate: number, hz = 440): Int16Array {
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

describe("Twilio stream codec", () => {
  it("decodes connected, start, media, dtmf, mark and stop", () => {
    const codec = new TwilioStreamCodec();
    expect(codec.decode(JSON.stringify(connected), false)).toEqual([{ type: "connected" }]);
    expect(codec.decode(JSON.stringify(start), false)).toEqual([
      {
        type: "start",
        providerCallId: "CA123",
        streamId: start.streamSid,
        parameters: { call_id: "c1", FirstName: "Jane" },
      },
    ]);
    const payload = Buffer.from(mulawEncode(tone(160, 8000))).toString("base64");
    const media = {
      event: "media",
      sequenceNumber: "3",
      media: { track: "inbound", chunk: "1", timestamp: "5", payload },
      streamSid: start.streamSid,
    };
    const [audio] = codec.decode(JSON.stringify(media), false);
    expect(audio?.type).toBe("audio");
    if (audio?.type !== "audio") throw new Error("no audio");
    // 160 μ-law samples at 8 kHz are 320 at 16 kHz, less the resampler's few samples of delay.
    expect(audio.pcm.length).toBeGreaterThan(280);
    expect(audio.pcm.length).toBeLessThanOrEqual(320);
    const dtmf = {
      event: "dtmf",
      streamSid: start.streamSid,
      sequenceNumber: "5",
      dtmf: { track: "inbound_track", digit: "1" },
    };
    expect(codec.decode(JSON.stringify(dtmf), false)).toEqual([{ type: "dtmf", digit: "1" }]);
    const mark = { event: "mark", sequenceNumber: "4", streamSid: start.streamSid, mark: { name: "my label" } };
    expect(codec.decode(JSON.stringify(mark), false)).toEqual([{ type: "mark", name: "my label" }]);
    const stop = {
      event: "stop",
      sequenceNumber: "5",
      stop: { accountSid: "AC123", callSid: "CA123" },
      streamSid: start.streamSid,
    };
    expect(codec.decode(JSON.stringify(stop), false)).toEqual([{ type: "stop" }]);
    expect(codec.decode("not json", false)).toEqual([]);
    expect(codec.decode(Buffer.from([1, 2]), true)).toEqual([]);
  });

  it("encodes 16 kHz audio as 20 ms μ-law media messages for the stream, and marks and clear", () => {
    const codec = new TwilioStreamCodec();
    expect(codec.encodeAudio(tone(320, 16000))).toEqual([]);
    codec.decode(JSON.stringify(start), false);
    const messages = codec.encodeAudio(tone(16000, 16000));
    // One second is 50 frames (plus the 20 ms sent before `start`, less the resampler's short delay).
    expect(messages.length).toBeGreaterThanOrEqual(49);
    expect(messages.length).toBeLessThanOrEqual(51);
    for (const message of messages) {
      const parsed = JSON.parse(String(message));
      expect(parsed.event).toBe("media");
      expect(parsed.streamSid).toBe(start.streamSid);
      expect(Buffer.from(parsed.media.payload, "base64").length).toBe(160);
    }
    expect(JSON.parse(codec.encodeMark("m1"))).toEqual({
      event: "mark",
      streamSid: start.streamSid,
      mark: { name: "m1" },
    });
    expect(JSON.parse(codec.encodeClear())).toEqual({ event: "clear", streamSid: start.streamSid });
  });

  it("round-trips a tone through the wire format without losing it", () => {
    const codec = new TwilioStreamCodec();
    codec.decode(JSON.stringify(start), false);
    const sent = codec.encodeAudio(tone(16000, 16000, 300));
    const back = new TwilioStreamCodec();
    let energy = 0;
    for (const message of sent) {
      const { media } = JSON.parse(String(message));
      const inbound = { event: "media", media: { track: "inbound", payload: media.payload }, streamSid: "MZ" };
      for (const event of back.decode(JSON.stringify(inbound), false))
        if (event.type === "audio") energy = Math.max(energy, rms(event.pcm));
    }
    // A 8000-peak sine has an RMS near 5657; μ-law and two resamplings keep it within a few percent.
    expect(energy).toBeGreaterThan(5000);
    expect(energy).toBeLessThan(6200);
  });
});
