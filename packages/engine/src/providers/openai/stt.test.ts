import { sttDefaultConfig } from "@parley/contract";
import { expect, it } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { startFakeOpenAiRealtime } from "../../../testing/vendor-servers/fake-openai-realtime.ts";
import { describeStreamingStt } from "../../../testing/vendor-servers/stt-conformance.ts";
import { TranscriptRecorder } from "../../../testing/vendor-servers/stt-harness.ts";
import { header } from "../../../testing/vendor-servers/ws-server.ts";
import { OpenAiStt } from "./stt.ts";

const config = sttDefaultConfig("openai");
const stt = (baseUrl: string, apiKey: string) => new OpenAiStt({ apiKey, config, net: defaultNetwork(), baseUrl });

describeStreamingStt({
  name: "OpenAI Realtime",
  start: startFakeOpenAiRealtime,
  provider: stt,
  partialsWhileSpeaking: false,
  checkHappyPath: (server) => {
    const upgrade = server.upgrades[0];
    expect(upgrade?.url.pathname).toBe("/v1/realtime");
    expect(upgrade?.url.searchParams.get("intent")).toBe("transcription");
    expect(upgrade && header(upgrade, "authorization")).toBe("Bearer test-key");
    const texts = (server.connections[0]?.texts ?? []) as Array<{ type: string; audio?: string }>;
    expect(texts[0]).toEqual({
      type: "session.update",
      session: {
        type: "transcription",
        audio: {
          input: {
            format: { type: "audio/pcm", rate: 24000 },
            transcription: { model: "gpt-4o-mini-transcribe", language: "en" },
            turn_detection: null,
          },
        },
      },
    });
    // 300 ms at 16 kHz went out as 24 kHz pcm16 (48 bytes a millisecond), then one commit.
    const appended = texts
      .filter((t) => t.type === "input_audio_buffer.append")
      .reduce((sum, t) => sum + Buffer.from(t.audio ?? "", "base64").length, 0);
    expect(Math.abs(appended - 300 * 48)).toBeLessThanOrEqual(4);
    expect(texts.at(-1)).toEqual({ type: "input_audio_buffer.commit" });
  },
});

it("closes an utterance with nothing heard without committing an empty buffer", async () => {
  const server = await startFakeOpenAiRealtime({ apiKey: "k" });
  try {
    const recorder = new TranscriptRecorder();
    const session = await stt(server.baseUrl, "k").open(recorder.options());
    session.finalize();
    await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
    await session.close();
    expect(recorder.errors).toEqual([]);
    expect(server.connections[0]?.texts).toHaveLength(1);
  } finally {
    await server.close();
  }
});
