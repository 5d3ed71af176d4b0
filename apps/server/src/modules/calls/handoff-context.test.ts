import type { ChatMessage } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { carriedContext, dialogueOf } from "./handoff-context.ts";

const history: ChatMessage[] = [
  { role: "assistant", content: "Front desk." },
  { role: "user", content: "It's Ann, order 42." },
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "lookup", arguments: "{}" }] },
  { role: "tool", toolCallId: "c1", name: "lookup", content: "{}" },
  { role: "user", content: "About my invoice." },
];
const sources = (summary: Promise<string>) => ({
  summarise: () => summary,
  values: () => ({ caller_name: "Ann", order_id: "42", secret: "x" }),
});

describe("what a hand-off carries to the next member", () => {
  it("keeps the words of the conversation and leaves tool calls and results out", () => {
    expect(dialogueOf(history).map((m) => m.content)).toEqual([
      "Front desk.",
      "It's Ann, order 42.",
      "About my invoice.",
    ]);
  });

  it("carries the whole dialogue, a summary, or the named variables with the caller's last line", async () => {
    const dialogue = dialogueOf(history);
    const transcript = await carriedContext(
      { mode: "transcript", variables: [] },
      dialogue,
      sources(Promise.resolve("")),
    );
    expect(transcript).toEqual({ note: "", history: dialogue });
    const summary = await carriedContext(
      { mode: "summary", variables: [] },
      dialogue,
      sources(Promise.resolve("Ann asks about an invoice.")),
    );
    expect(summary).toEqual({
      note: "Summary of the call so far: Ann asks about an invoice.",
      history: [{ role: "user", content: "About my invoice." }],
    });
    const variables = await carriedContext(
      { mode: "variables", variables: ["caller_name", "order_id", "missing"] },
      dialogue,
      sources(Promise.resolve("")),
    );
    expect(variables.note).toBe("What is known about the caller:\ncaller_name: Ann\norder_id: 42");
    expect(variables.history).toEqual([{ role: "user", content: "About my invoice." }]);
  });

  it("goes on without a summary that failed", async () => {
    const failed = await carriedContext(
      { mode: "summary", variables: [] },
      dialogueOf(history),
      sources(Promise.reject(new Error("timeout"))),
    );
    expect(failed).toEqual({ note: "", history: [{ role: "user", content: "About my invoice." }] });
  });
});
