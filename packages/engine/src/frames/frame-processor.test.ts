import { describe, expect, it } from "vitest";
import { FrameHarness } from "../../testing/frame-harness.ts";
import { FrameProcessor, FunctionProcessor, pipeline } from "./frame-processor.ts";
import type { DataFrame } from "./frames.ts";

/** Takes a while over every data frame, like a TTS or LLM stage. */
class SlowEcho extends FrameProcessor {
  release: (() => void) | null = null;

  protected override async process(frame: DataFrame): Promise<void> {
    await new Promise<void>((resolve) => {
      this.release = resolve;
    });
    this.push(frame);
  }
}

const text = (t: string) => ({ type: "text_in", text: t }) as const;

describe("frame processors", () => {
  it("passes data frames through in order", async () => {
    const h = new FrameHarness(new FunctionProcessor((f, push) => push(f)));
    await h.send(text("a"), text("b"), { type: "dtmf_in", digit: "1" });
    expect(h.types()).toEqual(["text_in", "text_in", "dtmf_in"]);
  });

  it("lets system frames jump ahead of queued data", async () => {
    const slow = new SlowEcho();
    const h = new FrameHarness(slow);
    slow.queueFrame(text("a"));
    slow.queueFrame({ type: "end", reason: "caller_hangup" });
    await h.settle(5);
    expect(h.types()).toEqual(["end"]);
    slow.release?.();
    await h.settle();
    expect(h.types()).toEqual(["end", "text_in"]);
  });

  it("drops queued data frames on an interruption", async () => {
    const slow = new SlowEcho();
    const h = new FrameHarness(slow);
    slow.queueFrame(text("a"));
    slow.queueFrame(text("b"));
    slow.queueFrame(text("c"));
    await h.settle(5);
    slow.queueFrame({ type: "interruption" });
    slow.release?.();
    await h.settle();
    // "a" was already being processed; "b" and "c" were cancelled.
    expect(h.output).toEqual([{ type: "interruption" }, text("a")]);
  });

  it("chains processors with pipeline()", async () => {
    const upper = new FunctionProcessor((f, push) => push(f.type === "text_in" ? text(f.text.toUpperCase()) : f));
    const exclaim = new FunctionProcessor((f, push) => push(f.type === "text_in" ? text(`${f.text}!`) : f));
    const { head, tail } = pipeline(upper, exclaim);
    const h = new FrameHarness(head, tail);
    await h.send(text("hi"));
    expect(h.ofType("text_in").map((f) => f.text)).toEqual(["HI!"]);
  });
});
