import { describe, expect, it } from "vitest";
import { DATABASE_ANSWERED_FRESH_MS, databaseCheck } from "./database-check.ts";

/** A ping the test answers when it chooses, counting the times it was asked. */
function controlledPing() {
  const calls: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const ping = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { ping, calls };
}

describe("databaseCheck", () => {
  it("takes a statement answered within the last second for the answer, without asking the database", async () => {
    const { ping, calls } = controlledPing();
    const check = databaseCheck({
      lastAnsweredAt: () => 5_000,
      ping,
      now: () => 5_000 + DATABASE_ANSWERED_FRESH_MS - 1,
    });
    expect(await check()).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it("asks the database once for the probes that arrive while it answers", async () => {
    const { ping, calls } = controlledPing();
    const check = databaseCheck({ lastAnsweredAt: () => 0, ping, now: () => 10_000 });
    const first = check();
    const second = check();
    expect(calls).toHaveLength(1);
    calls[0]?.resolve();
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });

  it("asks again once the last answer is older than a second, and reports a database that does not answer", async () => {
    const { ping, calls } = controlledPing();
    const check = databaseCheck({ lastAnsweredAt: () => 1_000, ping, now: () => 1_000 + DATABASE_ANSWERED_FRESH_MS });
    const failed = check();
    calls[0]?.reject(new Error("connection refused"));
    expect(await failed).toBe(false);
    // A failure is not remembered: the next probe asks again.
    const next = check();
    expect(calls).toHaveLength(2);
    calls[1]?.resolve();
    expect(await next).toBe(true);
  });
});
