import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainNode, UNREADY_GRACE_MS } from "../src/lib/drain.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * A node with no call to wait for: behind balancers (NODE_ID) it stays up, unready, for the grace
 * so the balancer's next check takes it out before it closes; alone it closes at once.
 */
let routed: TestApp;
let single: TestApp;
beforeAll(async () => {
  [routed, single] = await Promise.all([createTestApp({ NODE_ID: "node-3" }), createTestApp()]);
});
afterAll(async () => {
  await Promise.all([routed.close(), single.close()]);
});
const quiet = pino({ level: "silent" });

describe("drainNode", () => {
  it("keeps a node behind balancers unready for the grace before it may close", { timeout: 60_000 }, async () => {
    const started = Date.now();
    expect(await drainNode(routed.ctx, quiet, 60_000)).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(UNREADY_GRACE_MS);
    expect((await routed.app.inject({ method: "GET", url: "/api/v1/health/ready" })).statusCode).toBe(503);
  });

  it("lets a single process without NODE_ID close as soon as no call runs", { timeout: 60_000 }, async () => {
    const started = Date.now();
    expect(await drainNode(single.ctx, quiet, 60_000)).toBe(0);
    expect(Date.now() - started).toBeLessThan(UNREADY_GRACE_MS);
  });
});
