import { describe, expect, it } from "vitest";
import { speechSpan } from "./speech-span.ts";

const RATE = 16_000;

/** `seconds` of a tone at `amplitude`, or of low noise when amplitude is 0 (a quiet room). */
function audio(seconds: number, amplitude: number, noise = 20): Int16Array {
  const pcm = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < pcm.length; i += 1) {
    pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 220 * i) / RATE) + noise * (Math.random() * 2 - 1));
  }
  return pcm;
}

function joined(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe("speechSpan", () => {
  it("cuts the quiet before and after the speech, keeping 300 ms either side", () => {
    const pcm = joined(audio(4, 0), audio(1.5, 3_000), audio(2, 0));
    const span = speechSpan(pcm);
    expect(span.length / RATE).toBeGreaterThan(1.5 + 0.55);
    expect(span.length / RATE).toBeLessThan(1.5 + 0.65);
  });

  it("trims a noisy line at its own noise floor", () => {
    const pcm = joined(audio(3, 0, 400), audio(1, 6_000, 400), audio(3, 0, 400));
    expect(speechSpan(pcm).length / RATE).toBeLessThan(1.7);
  });

  it("returns audio with nothing above its floor whole", () => {
    const pcm = audio(2, 0);
    expect(speechSpan(pcm)).toBe(pcm);
  });

  it("keeps a pause inside the speech", () => {
    const pcm = joined(audio(1, 0), audio(0.8, 3_000), audio(0.6, 0), audio(0.8, 3_000), audio(1, 0));
    const span = speechSpan(pcm);
    expect(span.length / RATE).toBeGreaterThan(2.2 + 0.55);
  });
});
