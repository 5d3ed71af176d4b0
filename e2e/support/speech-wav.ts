import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Synthesizes a caller's line with Debian's espeak-ng and pads it with silence (so the assistant
 * hears the turn end), as a 16 kHz mono WAV that Chromium can use as its fake microphone.
 */
export function speechWav(text: string, silenceSeconds = 4): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-mic-"));
  const raw = path.join(dir, "speech.wav");
  const out = path.join(dir, "microphone.wav");
  execFileSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", raw, text]);
  execFileSync("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", out, "pad", "0.5", String(silenceSeconds)]);
  return out;
}
