import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { concatPcm, levelDb } from "../../audio/pcm.ts";
import { resample } from "../../audio/resample.ts";
import type { TranscriptEvent } from "../types.ts";
import { waitingUtterances, warmRecognisers } from "./sphinx-pool.ts";
import { PocketsphinxStt, pocketsphinxAvailable } from "./stt.ts";
import { ESPEAK_SAMPLE_RATE, EspeakTts } from "./tts.ts";

const config = { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16_000 };

async function speak(text: string, speed = 1): Promise<Int16Array> {
  const chunks = [];
  for await (const chunk of new EspeakTts({ ...config, speed }).synthesize(text)) {
    expect(chunk.sampleRate).toBe(ESPEAK_SAMPLE_RATE);
    chunks.push(chunk.pcm);
  }
  return concatPcm(chunks);
}

describe("eSpeak TTS", () => {
  it("synthesizes audible speech at 22.05 kHz", async () => {
    const pcm = await speak("Hello, how can I help you today?");
    const seconds = pcm.length / ESPEAK_SAMPLE_RATE;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(4);
    expect(levelDb(pcm)).toBeGreaterThan(-30);
  });

  it("speaks faster at a higher speed", async () => {
    const normal = await speak("The quick brown fox jumps over the lazy dog.");
    const fast = await speak("The quick brown fox jumps over the lazy dog.", 2);
    expect(fast.length).toBeLessThan(normal.length * 0.7);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const chunks = [];
    for await (const chunk of new EspeakTts(config).synthesize("Never heard.", { signal: controller.signal })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([]);
  });
});

describe.runIf(pocketsphinxAvailable())("PocketSphinx STT", () => {
  it("transcribes an utterance on finalize", { timeout: 60_000 }, async () => {
    const speech = resample(await speak("Hello world"), ESPEAK_SAMPLE_RATE, 16_000);
    const events: TranscriptEvent[] = [];
    const session = await new PocketsphinxStt().open({
      onTranscript: (e) => events.push(e),
      onError: (e) => {
        throw e;
      },
    });
    session.sendAudio(new Int16Array(4000));
    session.sendAudio(speech);
    session.sendAudio(new Int16Array(4000));
    session.finalize();
    await session.close();
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe("final");
    // PocketSphinx is weak on synthetic voices; it must at least produce words.
    expect(events[0]?.type === "final" && events[0].text.length).toBeGreaterThan(0);
  });

  it("decodes every utterance of every call on warm recognisers, not a process each", { timeout: 60_000 }, async () => {
    const speech = resample(await speak("Book a table"), ESPEAK_SAMPLE_RATE, 16_000);
    const heard: string[] = [];
    const sessions = await Promise.all(
      [1, 2, 3].map(() =>
        new PocketsphinxStt().open({
          onTranscript: (e) => e.type === "final" && heard.push(e.text),
          onError: (e) => {
            throw e;
          },
        }),
      ),
    );
    for (let round = 0; round < 2; round += 1) {
      for (const session of sessions) {
        session.sendAudio(speech);
        session.finalize();
      }
    }
    await Promise.all(sessions.map((s) => s.close()));
    expect(heard).toHaveLength(6);
    expect(heard.every((text) => text.length > 0)).toBe(true);
    expect(warmRecognisers()).toBeLessThanOrEqual(2);
  });

  it("queues each utterance when it is finalized and delivers a call's words in order", {
    timeout: 60_000,
  }, async () => {
    const first = resample(await speak("What are your opening hours"), ESPEAK_SAMPLE_RATE, 16_000);
    const second = resample(await speak("Thank you very much"), ESPEAK_SAMPLE_RATE, 16_000);
    const heard = { a: [] as string[], b: [] as string[] };
    const open = (into: string[]) =>
      new PocketsphinxStt().open({
        onTranscript: (e) => e.type === "final" && into.push(e.text),
        onError: (e) => {
          throw e;
        },
      });
    const [a, b] = await Promise.all([open(heard.a), open(heard.b)]);
    if (!a || !b) throw new Error("no session");
    a.sendAudio(first);
    a.finalize();
    a.sendAudio(second);
    a.finalize();
    b.sendAudio(first);
    b.finalize();
    // Three utterances, two recognisers at most: one waits, A's second among them (it is not held
    // back until A's first is decoded, behind every utterance finalized meanwhile).
    expect(waitingUtterances()).toBeGreaterThanOrEqual(1);
    await Promise.all([a.close(), b.close()]);
    expect(heard.a).toHaveLength(2);
    expect(heard.b).toHaveLength(1);
    // The same audio decodes to the same words: A's first final is its first utterance.
    expect(heard.a[0]).toBe(heard.b[0]);
    expect(waitingUtterances()).toBe(0);
  });

  it("reports an empty final for a click too short to be speech", async () => {
    const events: TranscriptEvent[] = [];
    const session = await new PocketsphinxStt().open({
      onTranscript: (e) => events.push(e),
      onError: () => {},
    });
    session.sendAudio(new Int16Array(800));
    session.finalize();
    await session.close();
    expect(events).toEqual([{ type: "final", text: "" }]);
  });

  it("lets a process exit once its recogniser has answered (it is not waited on when idle)", {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-sphinx-exit-"));
    const script = path.join(dir, "decode-once.mts");
    const pool = pathToFileURL(path.join(import.meta.dirname, "sphinx-pool.ts")).href;
    writeFileSync(
      script,
      `import { recogniseWarm, warmUpRecogniser } from ${JSON.stringify(pool)};
warmUpRecogniser();
const noise = Int16Array.from({ length: 16_000 }, (_, i) => ((i * 7919) % 200) - 100);
console.log("decoded:" + JSON.stringify(await recogniseWarm(noise)));
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: import.meta.dirname, stdio: "pipe" });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      // The answer arrives (a decode in flight keeps the process alive), then the process ends by
      // itself although its recogniser is still running.
      const [code] = (await once(child, "exit")) as [number | null];
      expect(output).toContain("decoded:");
      expect(code, output).toBe(0);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
