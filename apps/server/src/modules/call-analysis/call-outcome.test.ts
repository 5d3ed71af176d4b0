import { AnalysisSettings } from "@parley/contract";
import type { ChatMessage } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { analyseTranscript } from "./analyse-call.ts";
import { faultOutcome } from "./call-outcome.ts";

describe("the fault outcome the post-call analysis reads", () => {
  it("names each failed stage, what was done and the end reason; nothing when no stage failed", () => {
    expect(faultOutcome({ end_reason: "caller_hangup", events: [] })).toBeNull();
    const outcome = faultOutcome({
      end_reason: "assistant_error",
      events: [
        {
          type: "fault",
          stage: "llm",
          provider: "openai",
          kind: "server_error",
          action: "recovered",
          error: "HTTP 503",
          at_ms: 10,
        },
        {
          type: "fault",
          stage: "llm",
          provider: "openai",
          kind: "timeout",
          action: "gave_up",
          error: "no first token",
          at_ms: 20,
        },
      ],
    });
    expect(outcome).toBe(
      "the language model (openai) failed (server error) and the caller heard a recovery line and the reply was asked again; " +
        "the language model (openai) failed (timeout) and the call could not go on and was ended. The call's end reason is assistant_error.",
    );
  });

  it("is put after the transcript of every analysis task", async () => {
    const asked: ChatMessage[][] = [];
    const settings = AnalysisSettings.parse({ summary: { enabled: true }, success_evaluation: { enabled: true } });
    await analyseTranscript(
      async (messages) => {
        asked.push(messages);
        return /evaluate/.test(messages[0]?.content ?? "")
          ? '{"verdict": "fail", "reason": "The model failed."}'
          : "Cut short.";
      },
      settings,
      [{ role: "user", text: "Hello?", at_ms: 0 }],
      "the voice (x) failed (timeout) and the call could not go on and was ended.",
    );
    expect(asked).toHaveLength(2);
    for (const messages of asked)
      expect(messages[1]?.content).toContain("How the call went technically: the voice (x) failed");
  });
});
