import { describe, expect, it } from "vitest";
import { FallbackStt, type FallbackSwitch } from "./fallback.ts";
import { ProviderError } from "./provider-error.ts";
import { SttBase } from "./stage-bases.ts";
import type { SttOpenOptions, SttSession, TranscriptEvent } from "./types.ts";

/** Retries are the recognisers' own (their stage base); these tests make them quick. */
const fast = { attempts: 2, baseDelayMs: 1 };

/** An in-memory recogniser: it "hears" each audio frame as one word and can be made to fail. */
class FakeStt extends SttBase {
  readonly streaming = true;
  opens = 0;
  failOpen = false;
  sessions: { options: SttOpenOptions; audio: number[]; finalized: number; closed: boolean }[] = [];

  constructor(readonly id: string) {
    super();
    this.retry = fast;
  }

  protected async run(options: SttOpenOptions): Promise<SttSession> {
    this.opens++;
    if (this.failOpen) throw new ProviderError(this.id, "connect ECONNREFUSED", true);
    const state = { options, audio: [] as number[], finalized: 0, closed: false };
    this.sessions.push(state);
    return {
      sendAudio: (pcm) => {
        state.audio.push(pcm[0] ?? 0);
        options.onTranscript({ type: "partial", text: `${this.id}:${pcm[0]}` });
      },
      finalize: () => {
        state.finalized++;
        options.onTranscript({ type: "final", text: `${this.id}:${state.audio.join(",")}` });
      },
      close: async () => {
        state.closed = true;
      },
    };
  }

  /** The live socket drops: the session reports an error after open. */
  drop(error = new ProviderError(this.id, "socket closed (1006)", true)): void {
    this.sessions.at(-1)?.options.onError(error);
  }
}

function frame(n: number): Int16Array {
  return new Int16Array([n, 0, 0]);
}

async function openWith(stt: FallbackStt) {
  const transcripts: TranscriptEvent[] = [];
  const errors: Error[] = [];
  const session = await stt.open({
    onTranscript: (event) => transcripts.push(event),
    onError: (error) => errors.push(error),
  });
  return { session, transcripts, errors };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("FallbackStt", () => {
  it("opens the next recogniser when the first cannot be reached", async () => {
    const deepgram = new FakeStt("deepgram");
    deepgram.failOpen = true;
    const assembly = new FakeStt("assembly-ai");
    const switches: FallbackSwitch[] = [];
    const { session, transcripts } = await openWith(new FallbackStt([deepgram, assembly], (s) => switches.push(s)));
    session.sendAudio(frame(1));
    expect(transcripts).toEqual([{ type: "partial", text: "assembly-ai:1" }]);
    expect(deepgram.opens).toBe(2);
    expect(switches).toEqual([expect.objectContaining({ stage: "stt", from: "deepgram", to: "assembly-ai" })]);
  });

  it("re-opens on the next provider when the live session fails mid-call and keeps the audio flowing", async () => {
    const deepgram = new FakeStt("deepgram");
    const assembly = new FakeStt("assembly-ai");
    const switches: FallbackSwitch[] = [];
    const stt = new FallbackStt([deepgram, assembly], (s) => switches.push(s));
    const { session, transcripts, errors } = await openWith(stt);
    session.sendAudio(frame(1));
    deepgram.failOpen = true; // the vendor is gone, not just the socket
    deepgram.drop();
    session.sendAudio(frame(2)); // said while the new session connects
    session.finalize();
    await tick();
    session.sendAudio(frame(3));
    session.finalize();
    expect(errors).toEqual([]);
    // The same vendor is tried again first (reported as a hop to itself: a retry), then the next.
    expect(switches).toEqual([
      expect.objectContaining({ from: "deepgram", to: "deepgram" }),
      expect.objectContaining({ from: "deepgram", to: "assembly-ai" }),
    ]);
    expect(stt.id).toBe("assembly-ai");
    expect(assembly.sessions[0]?.audio).toEqual([2, 3]);
    expect(transcripts.filter((t) => t.type === "final")).toEqual([
      { type: "final", text: "assembly-ai:2" },
      { type: "final", text: "assembly-ai:2,3" },
    ]);
    expect(deepgram.sessions[0]?.closed).toBe(true);
  });

  it("re-opens the same provider after a passing drop, reporting it as a retry (a hop to itself)", async () => {
    const deepgram = new FakeStt("deepgram");
    const switches: FallbackSwitch[] = [];
    const { session, errors } = await openWith(new FallbackStt([deepgram], (s) => switches.push(s)));
    deepgram.drop();
    await tick();
    session.sendAudio(frame(7));
    expect(deepgram.opens).toBe(2);
    expect(deepgram.sessions[1]?.audio).toEqual([7]);
    expect(switches).toEqual([expect.objectContaining({ stage: "stt", from: "deepgram", to: "deepgram" })]);
    expect(errors).toEqual([]);
  });

  it("ignores transcripts from an abandoned session and reports the error once nothing is left", async () => {
    const deepgram = new FakeStt("deepgram");
    const { transcripts, errors } = await openWith(new FallbackStt([deepgram], undefined));
    const stale = deepgram.sessions[0];
    deepgram.drop(new ProviderError("deepgram", "HTTP 401: bad key", false, 401));
    stale?.options.onTranscript({ type: "final", text: "late" });
    await tick();
    expect(transcripts).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("bad key");
  });
});
