import { describe, expect, it } from "vitest";
import { originAllowed } from "./origin-allowed.ts";
import { bytesFromPcm, isDigitalSilence, lateFrameWatch, pcmFromBytes } from "./realtime-messages.ts";

describe("originAllowed", () => {
  const publicUrl = "https://parley.example.com";
  it("accepts PUBLIC_URL's origin, the request's own host, and no Origin at all", () => {
    expect(originAllowed("https://parley.example.com", publicUrl, "internal:3000")).toBe(true);
    expect(originAllowed("http://127.0.0.1:3000", publicUrl, "127.0.0.1:3000")).toBe(true);
    expect(originAllowed(undefined, publicUrl, "127.0.0.1:3000")).toBe(true);
  });
  it("refuses other sites, other ports and garbage", () => {
    expect(originAllowed("https://evil.example", publicUrl, "parley.example.com")).toBe(false);
    expect(originAllowed("https://parley.example.com:8443", publicUrl, "parley.example.com")).toBe(false);
    expect(originAllowed("null", publicUrl, "parley.example.com")).toBe(false);
  });
});

describe("PCM on the wire", () => {
  it("reads little-endian samples from an unaligned buffer and drops an odd trailing byte", () => {
    const backing = Buffer.from([0xff, 0x01, 0x00, 0xff, 0x7f, 0x09]);
    expect(Array.from(pcmFromBytes(backing.subarray(1)))).toEqual([1, 32767]);
  });
  it("writes samples back as the same bytes", () => {
    const pcm = Int16Array.from([1, -2, 32767]);
    expect(Array.from(pcmFromBytes(bytesFromPcm(pcm)))).toEqual([1, -2, 32767]);
  });
});

describe("the assistant's silence", () => {
  it("is a frame of exact zeros only: any sample, however quiet, is sound", () => {
    expect(isDigitalSilence(new Int16Array(320))).toBe(true);
    const faint = new Int16Array(320);
    faint[319] = -1;
    expect(isDigitalSilence(faint)).toBe(false);
  });
});

describe("the pacing of outgoing frames", () => {
  it("reports a frame handed over more than 40 ms past its 20 ms slot, and only that one", () => {
    let now = 1000;
    let late = 0;
    const paced = lateFrameWatch(
      () => {
        late += 1;
      },
      () => now,
    );
    for (const step of [0, 20, 21, 19, 60, 20, 61, 20]) {
      now += step;
      paced();
    }
    expect(late).toBe(1);
  });
});
