import { describe, expect, it } from "vitest";
import { emptyUsage } from "../shared/realtime-usage.ts";
import { addLiveUsage } from "./usage.ts";

describe("addLiveUsage", () => {
  it("maps usageMetadata's modalities into the shared usage and adds turns up", () => {
    const turn = {
      promptTokenCount: 140,
      cachedContentTokenCount: 30,
      responseTokenCount: 90,
      toolUsePromptTokenCount: 12,
      thoughtsTokenCount: 7,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: 100 },
        { modality: "AUDIO", tokenCount: 40 },
      ],
      toolUsePromptTokensDetails: [{ modality: "TEXT", tokenCount: 12 }],
      responseTokensDetails: [
        { modality: "AUDIO", tokenCount: 80 },
        { modality: "TEXT", tokenCount: 10 },
      ],
    };
    const once = addLiveUsage(emptyUsage(), turn);
    expect(once).toEqual({
      inputTextTokens: 112,
      inputAudioTokens: 40,
      cachedInputTokens: 30,
      outputTextTokens: 17,
      outputAudioTokens: 80,
    });
    expect(addLiveUsage(once, turn).outputAudioTokens).toBe(160);
  });

  it("counts nothing for a report without details", () => {
    expect(addLiveUsage(emptyUsage(), { totalTokenCount: 10 })).toEqual(emptyUsage());
  });
});
