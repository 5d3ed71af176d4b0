import { SpeechmaticsSttConfig } from "@parley/contract";
import { expect } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { startFakeSpeechmaticsRt } from "../../../testing/vendor-servers/fake-speechmatics-rt.ts";
import { describeStreamingStt } from "../../../testing/vendor-servers/stt-conformance.ts";
import { header } from "../../../testing/vendor-servers/ws-server.ts";
import { SpeechmaticsStt } from "./stt.ts";

const config = SpeechmaticsSttConfig.parse({ additional_vocab: ["Parley"] });

describeStreamingStt({
  name: "Speechmatics",
  start: startFakeSpeechmaticsRt,
  provider: (baseUrl, apiKey) => new SpeechmaticsStt({ apiKey, config, net: defaultNetwork(), baseUrl }),
  checkHappyPath: (server) => {
    const upgrade = server.upgrades[0];
    expect(upgrade?.url.pathname).toBe("/v2");
    expect(upgrade && header(upgrade, "authorization")).toBe("Bearer test-key");
    const connection = server.connections[0];
    const frames = connection?.frameSizes.length ?? 0;
    expect(connection?.texts).toEqual([
      {
        message: "StartRecognition",
        audio_format: { type: "raw", encoding: "pcm_s16le", sample_rate: 16000 },
        transcription_config: {
          // The default "auto" is not a real-time language: English stands in.
          language: "en",
          operating_point: "enhanced",
          enable_partials: true,
          max_delay: 1,
          conversation_config: { end_of_utterance_silence_trigger: 0.5 },
          additional_vocab: [{ content: "Parley" }],
        },
      },
      { message: "ForceEndOfUtterance" },
      { message: "EndOfStream", last_seq_no: frames },
    ]);
    expect(connection?.audioBytes).toBe(300 * 32);
  },
});
