import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { ReplyGate } from "./reply-gate.ts";

describe("ReplyGate", () => {
  it("sends at once when the model is not replying", () => {
    const gate = new ReplyGate(new VirtualClock());
    const sent: string[] = [];
    gate.whenIdle(() => sent.push("goodbye"));
    expect(sent).toEqual(["goodbye"]);
  });

  it("holds a line until the reply under way has all its audio, then sends one line per reply", () => {
    const gate = new ReplyGate(new VirtualClock());
    const sent: string[] = [];
    gate.started();
    gate.audio("item_1");
    gate.whenIdle(() => sent.push("bridge"));
    gate.whenIdle(() => sent.push("goodbye"));
    expect(sent).toEqual([]);
    gate.done("item_1");
    // The first line is a reply of its own: the second waits for it.
    expect(sent).toEqual(["bridge"]);
    gate.started();
    gate.audio("item_2");
    gate.done("item_2");
    expect(sent).toEqual(["bridge", "goodbye"]);
  });

  it("does not wait for ever on a reply that shows no audio, nor after function calls", async () => {
    const clock = new VirtualClock();
    const gate = new ReplyGate(clock);
    const sent: string[] = [];
    gate.started();
    gate.whenIdle(() => sent.push("after a silent reply"));
    await clock.advance(2_999);
    expect(sent).toEqual([]);
    await clock.advance(1);
    expect(sent).toEqual(["after a silent reply"]);

    const tools = new ReplyGate(clock);
    tools.started();
    tools.whenIdle(() => sent.push("after tools"));
    tools.calledTools();
    expect(sent.at(-1)).toBe("after tools");
  });

  it("sends nothing once closed", () => {
    const gate = new ReplyGate(new VirtualClock());
    const sent: string[] = [];
    gate.started();
    gate.whenIdle(() => sent.push("late"));
    gate.close();
    gate.done("item_1");
    expect(sent).toEqual([]);
  });
});
