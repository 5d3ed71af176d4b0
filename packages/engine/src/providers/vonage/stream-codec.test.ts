import { describe, expect, it } from "vitest";
import { VonageStreamCodec } from "./stream-codec.ts";

const connected = {
  event: "websocket:connected",
  "content-type": "audio/l16;rate=16000",
  call_id: "c1",
  call_uuid: "u1",
};

describe("Vonage stream codec", () => {
  it("reads the connected message's headers as the start, binary PCM as audio, and DTMF", () => {
    const codec = new VonageStreamCodec();
    expect(codec.decode(JSON.stringify(connected), false)).toEqual([
      { type: "connected" },
      { type: "start", providerCallId: "u1", streamId: "", parameters: { call_id: "c1" } },
    ]);
    const frame = Buffer.alloc(640);
    for (let i = 0; i < 320; i++) frame.writeInt16LE(i * 10 - 1600, i * 2);
    const [audio] = codec.decode(frame.subarray(0), true);
    if (audio?.type !== "audio") throw new Error("no audio");
    expect(audio.pcm.length).toBe(320);
    expect(audio.pcm[0]).toBe(-1600);
    expect(audio.pcm[319]).toBe(1590);
    expect(codec.decode(JSON.stringify({ event: "websocket:dtmf", digit: "5", duration: 260 }), false)).toEqual([
      { type: "dtmf", digit: "5" },
    ]);
    expect(codec.decode(JSON.stringify({ event: "websocket:cleared" }), false)).toEqual([]);
  });

  it("reads a PCM frame that starts at an odd byte offset", () => {
    const codec = new VonageStreamCodec();
    const backing = Buffer.alloc(641);
    backing.writeInt16LE(1234, 1);
    const [audio] = codec.decode(backing.subarray(1), true);
    expect(audio?.type === "audio" && audio.pcm[0]).toBe(1234);
  });

  it("sends 640-byte binary frames, notify marks and a clear action", () => {
    const codec = new VonageStreamCodec();
    codec.decode(JSON.stringify(connected), false);
    const pcm = new Int16Array(800).map((_, i) => i);
    const frames = codec.encodeAudio(pcm);
    expect(frames.map((f) => f.length)).toEqual([640, 640]);
    expect(frames[1]?.readInt16LE(0)).toBe(320);
    expect(JSON.parse(codec.encodeMark("m1"))).toEqual({ action: "notify", payload: { name: "m1" } });
    expect(codec.decode(JSON.stringify({ event: "websocket:notify", payload: { name: "m1" } }), false)).toEqual([
      { type: "mark", name: "m1" },
    ]);
    expect(JSON.parse(codec.encodeClear())).toEqual({ action: "clear" });
    // The 160 samples held back before the clear are dropped with it.
    expect(codec.encodeAudio(new Int16Array(320))).toHaveLength(1);
  });

  it("converts when Vonage streams 8 kHz", () => {
    const codec = new VonageStreamCodec();
    codec.decode(JSON.stringify({ ...connected, "content-type": "audio/l16;rate=8000" }), false);
    const frames = codec.encodeAudio(new Int16Array(3200).fill(1000));
    expect(frames.length).toBeGreaterThanOrEqual(9);
    expect(frames.every((f) => f.length === 320)).toBe(true);
    const [audio] = codec.decode(Buffer.alloc(320), true);
    expect(audio?.type === "audio" && audio.pcm.length).toBeGreaterThan(280);
  });
});
