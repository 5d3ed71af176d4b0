import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";

describe("the assistant's words as they are spoken", () => {
  it("sends the reply so far each time a sentence starts playing, then the final", async () => {
    const call = new CallHarness({
      assistant: { first_message: "Hello there. How can I help you today?" },
      msPerWord: 100,
    });
    await call.start();
    await call.clock.until(() => call.speaking());
    const partials = () => call.of("transcript").filter((e) => e.role === "assistant" && !e.final);
    // The first sentence is shown as its audio starts, long before the reply ends.
    expect(partials().map((e) => e.text)).toEqual(["Hello there."]);
    await call.wait(250);
    expect(partials().map((e) => e.text)).toEqual(["Hello there.", "Hello there. How can I help you today?"]);
    expect(call.transcript()).toEqual([]);
    await call.untilListening();
    expect(call.transcript()).toEqual(["assistant: Hello there. How can I help you today?"]);
    await call.session.hangup("caller_hangup");
  });
});
