import { describe, expect, it } from "vitest";
import { NodeLifecycle } from "./node-lifecycle.ts";

describe("NodeLifecycle", () => {
  it("is ready until drained, then runs every drain listener once, a failing one passed over", async () => {
    const node = new NodeLifecycle("node-1", "node-1");
    expect(node.state).toBe("ready");
    expect(node.accepting).toBe(true);
    const ran: string[] = [];
    node.onDrain(() => {
      ran.push("jobs");
    });
    node.onDrain(() => {
      throw new Error("listener failed");
    });
    const unsubscribed = node.onDrain(() => {
      ran.push("never");
    });
    unsubscribed();
    await Promise.all([node.drain(), node.drain()]);
    expect(node.state).toBe("draining");
    expect(node.accepting).toBe(false);
    expect(ran).toEqual(["jobs"]);
  });

  it("runs a listener registered after the drain began at once", async () => {
    const node = new NodeLifecycle("node-1", null);
    await node.drain();
    const late = new Promise<string>((resolve) => node.onDrain(() => resolve("ran")));
    await expect(late).resolves.toBe("ran");
  });
});
