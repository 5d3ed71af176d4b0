import { describe, expect, it } from "vitest";
import { BUCKETS, bucketOf, callerKeyOf, coversCall, variantAt } from "./experiment-assignment.ts";

const EXPERIMENT = "5b0c2f36-3a51-4c8e-9a57-0d4f7f0f3e11";
const variants = [
  { version: 1, percent: 50 },
  { version: 2, percent: 50 },
];
const numbers = Array.from({ length: 200 }, (_, i) => `+1555${String(1_000_000 + i * 7919).slice(-7)}`);

describe("experiment assignment", () => {
  it("splits 200 distinct callers 50/50 within 100 ± 20", () => {
    const counts = new Map<number, number>();
    for (const number of numbers) {
      const version = variantAt(variants, bucketOf(EXPERIMENT, number))?.version ?? 0;
      counts.set(version, (counts.get(version) ?? 0) + 1);
    }
    expect(counts.get(1)).toBeGreaterThanOrEqual(80);
    expect(counts.get(1)).toBeLessThanOrEqual(120);
    expect((counts.get(1) ?? 0) + (counts.get(2) ?? 0)).toBe(200);
  });

  it("gives the same caller the same bucket every time, another experiment another shuffle", () => {
    for (const number of numbers.slice(0, 20)) {
      expect(bucketOf(EXPERIMENT, number)).toBe(bucketOf(EXPERIMENT, number));
    }
    const moved = numbers.filter((n) => bucketOf(EXPERIMENT, n) !== bucketOf("another", n));
    expect(moved.length).toBeGreaterThan(190);
  });

  it("hands out buckets by share in the variants' order", () => {
    const split = [
      { version: 3, percent: 10 },
      { version: 4, percent: 90 },
    ];
    expect(variantAt(split, 0)?.version).toBe(3);
    expect(variantAt(split, BUCKETS / 10 - 1)?.version).toBe(3);
    expect(variantAt(split, BUCKETS / 10)?.version).toBe(4);
    expect(variantAt(split, BUCKETS - 1)?.version).toBe(4);
  });

  it("covers a call by its channel; a campaign's calls only under 'campaign' or 'all'", () => {
    const phone = { agentId: "a", channel: "phone", direction: "inbound" } as const;
    const campaign = { ...phone, direction: "outbound", batchCallId: "b" } as const;
    expect(coversCall("phone", phone)).toBe(true);
    expect(coversCall("browser", phone)).toBe(false);
    expect(coversCall("phone", campaign)).toBe(false);
    expect(coversCall("campaign", campaign)).toBe(true);
    expect(coversCall("all", campaign)).toBe(true);
    expect(coversCall("all", { ...phone, channel: "test" })).toBe(false);
  });

  it("knows a caller by the other party's number, else by the key its channel gives, else by the call", () => {
    const inbound = {
      agentId: "a",
      channel: "phone",
      direction: "inbound",
      from: "+14155550100",
      to: "+14155550101",
    } as const;
    expect(callerKeyOf(inbound, "call-1")).toBe("+14155550100");
    expect(callerKeyOf({ ...inbound, direction: "outbound" }, "call-1")).toBe("+14155550101");
    const browser = { agentId: "a", channel: "web", direction: "inbound", callerKey: "user:u1" } as const;
    expect(callerKeyOf(browser, "call-1")).toBe("user:u1");
    expect(callerKeyOf(browser, "call-2")).toBe("user:u1");
    expect(callerKeyOf({ ...browser, callerKey: undefined }, "call-2")).toBe("call-2");
  });
});
