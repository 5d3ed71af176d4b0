import { describe, expect, it } from "vitest";
import { ServerEvents } from "./server-events.ts";

const event = { workspaceId: "w", runId: "r" };

describe("server events", () => {
  it("settles once every listener started so far has finished, failed ones included", async () => {
    const events = new ServerEvents();
    let release: () => void = () => {};
    const written: string[] = [];
    events.on("test.run.completed", async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      written.push("delivery");
    });
    events.on("test.run.completed", async () => {
      throw new Error("a listener that fails");
    });
    events.emit("test.run.completed", event);
    let settled = false;
    const waiting = events.settled(60_000).then((ok) => {
      settled = ok;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await waiting;
    expect(settled).toBe(true);
    expect(written).toEqual(["delivery"]);
  });

  it("gives up after its timeout on a listener that never finishes", async () => {
    const events = new ServerEvents();
    events.on("test.run.completed", () => new Promise<void>(() => {}));
    events.emit("test.run.completed", event);
    expect(await events.settled(20)).toBe(false);
  });

  it("is settled at once with nothing running", async () => {
    expect(await new ServerEvents().settled(0)).toBe(true);
  });
});
