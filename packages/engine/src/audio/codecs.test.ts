import { describe, expect, it } from "vitest";
import { noise, sine } from "../../testing/signals.ts";
import { ToneDetector, toneRatio } from "./goertzel.ts";
import { mulawDecode, mulawEncode } from "./mulaw.ts";
import { levelDb, rms } from "./pcm.ts";
import { decodeWav, encodeWav } from "./wav.ts";

describe("μ-law", () => {
  it("round-trips speech-level audio within the codec's quantisation error", () => {
    const tone = sine(440, 100, 8000, 0.5);
    const back = mulawDecode(mulawEncode(tone));
    let err = 0;
    for (let i = 0; i < tone.length; i++) err += ((back[i] as number) - (tone[i] as number)) ** 2;
    const snr = 10 * Math.log10(rms(tone) ** 2 / (err / tone.length));
    expect(snr).toBeGreaterThan(30);
  });

  it("encodes silence as 0xFF and decodes the standard extremes", () => {
    expect(mulawEncode(new Int16Array([0]))[0]).toBe(0xff);
    expect(mulawDecode(new Uint8Array([0x00]))[0]).toBe(-32124);
    expect(mulawDecode(new Uint8Array([0x80]))[0]).toBe(32124);
  });
});

describe("WAV", () => {
  it("writes a 44-byte mono 16-bit WAV header", () => {
    const wav = encodeWav({ sampleRate: 16_000, channels: [Int16Array.of(1, 2, 3)] });
    expect(wav.subarray(0, 4).toString()).toBe("RIFF");
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt32LE(40)).toBe(6);
    expect(wav.length).toBe(50);
  });

  it("round-trips mono audio", () => {
    const tone = sine(440, 50, 16_000);
    const back = decodeWav(encodeWav({ sampleRate: 16_000, channels: [tone] }));
    expect(back.sampleRate).toBe(16_000);
    expect(back.channels).toHaveLength(1);
    expect(back.channels[0]).toEqual(tone);
  });

  it("round-trips stereo audio, padding the shorter channel", () => {
    const left = sine(440, 50, 8000);
    const right = sine(880, 40, 8000);
    const wav = encodeWav({ sampleRate: 8000, channels: [left, right] });
    expect(wav.readUInt16LE(22)).toBe(2);
    const back = decodeWav(wav);
    expect(back.channels[0]).toEqual(left);
    expect(back.channels[1]?.subarray(0, right.length)).toEqual(right);
    expect(back.channels[1]?.subarray(right.length).every((s) => s === 0)).toBe(true);
  });

  it("rejects what is not a 16-bit PCM WAV", () => {
    expect(() => decodeWav(new Uint8Array(20))).toThrow("Not a WAV file");
  });
});

describe("levels and tones", () => {
  it("measures level in dBFS", () => {
    expect(levelDb(sine(440, 100, 16_000, 1))).toBeCloseTo(-3, 0);
    expect(levelDb(new Int16Array(10))).toBe(-100);
  });

  it("finds a tone's energy with Goertzel", () => {
    expect(toneRatio(sine(1000, 20), 1000, 16_000)).toBeGreaterThan(0.95);
    expect(toneRatio(sine(1600, 20), 1000, 16_000)).toBeLessThan(0.05);
    expect(toneRatio(noise(20), 1000, 16_000)).toBeLessThan(0.2);
  });

  it("confirms a sustained tone after the minimum duration and reports its end", () => {
    const detector = new ToneDetector({ sampleRate: 16_000, frequencies: [1000], minDurationMs: 200 });
    const beep = sine(1000, 300);
    const events: (string | null)[] = [];
    for (let i = 0; i < beep.length; i += 320) events.push(detector.push(beep.subarray(i, i + 320)));
    events.push(detector.push(new Int16Array(320)));
    expect(events.indexOf("start")).toBe(9);
    expect(events.at(-1)).toBe("end");
  });

  it("ignores a tone shorter than the minimum", () => {
    const detector = new ToneDetector({ sampleRate: 16_000, frequencies: [1000], minDurationMs: 200 });
    const blip = sine(1000, 100);
    for (let i = 0; i < blip.length; i += 320) expect(detector.push(blip.subarray(i, i + 320))).toBeNull();
  });
});
