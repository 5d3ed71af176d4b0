import { AssemblyAiSttConfig } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { startFakeAssemblyAiStreaming } from "../../../testing/vendor-servers/fake-assemblyai-streaming.ts";
import { describeStreamingStt } from "../../../testing/vendor-servers/stt-conformance.ts";
import { header } from "../../../testing/vendor-servers/ws-server.ts";
import { AssemblyAiStt } from "./stt.ts";

const config = AssemblyAiSttConfig.parse({ word_boost: ["Parley", "IVR"], end_utterance_silence_threshold: 700 });

describeStreamingStt({
  name: "AssemblyAI",
  start: startFakeAssemblyAiStreaming,
  provider: (baseUrl, apiKey) => new AssemblyAiStt({ apiKey, config, net: defaultNetwork(), baseUrl }),
  checkHappyPath: (server) => {
    const upgrade = server.upgrades[0];
    expect(upgrade?.url.pathname).toBe("/v3/ws");
    expect(upgrade && header(upgrade, "authorization")).toBe("test-key");
    expect(Object.fromEntries(upgrade?.url.searchParams ?? [])).toEqual({
      sample_rate: "16000",
      encoding: "pcm_s16le",
      speech_model: "universal-streaming-english",
      format_turns: "true",
      min_end_of_turn_silence_when_confident: "700",
      keyterms_prompt: JSON.stringify(["Parley", "IVR"]),
    });
    const connection = server.connections[0];
    // Every audio frame is within the documented 50–1000 ms, and all 300 ms arrived.
    for (const size of connection?.frameSizes ?? []) expect(size).toBeGreaterThanOrEqual(1_600);
    expect(connection?.audioBytes).toBe(300 * 32);
    expect(connection?.texts).toEqual([{ type: "ForceEndpoint" }, { type: "Terminate" }]);
  },
});
