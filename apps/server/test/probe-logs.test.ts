import { ReadinessResponse } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./harness.ts";
import { createLoggedTestApp, type LogLines } from "./support/logged-app.ts";

/**
 * Balancers probe readiness every second on every node: the probes must not fill the request log,
 * and a draining node's 503 is its answer, not a failed request logged at error.
 */
let t: TestApp & { log: LogLines };
beforeAll(async () => {
  // Every request logged (successes are only at debug by default): the probes must still stay out.
  t = await createLoggedTestApp({ NODE_ID: "node-7", LOG_REQUESTS: "all" });
});
afterAll(() => t.close());

const linesAbout = (url: string) => t.log.entries().filter((entry) => JSON.stringify(entry).includes(url));

describe("health probes in the log", () => {
  it("logs neither a ready probe nor a draining node's 503, while other requests are logged", async () => {
    const ready = await t.app.inject({ method: "GET", url: "/api/v1/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ReadinessResponse.parse(ready.json())).toMatchObject({ status: "ready", node: "node-7" });
    expect((await t.app.inject({ method: "GET", url: "/api/v1/health/live" })).statusCode).toBe(200);

    await t.ctx.node.drain();
    const draining = await t.app.inject({ method: "GET", url: "/api/v1/health/ready" });
    expect(draining.statusCode).toBe(503);
    expect(ReadinessResponse.parse(draining.json()).status).toBe("draining");

    expect((await t.app.inject({ method: "GET", url: "/api/v1/health" })).statusCode).toBe(200);
    expect(linesAbout("/api/v1/health/ready")).toEqual([]);
    expect(linesAbout("/api/v1/health/live")).toEqual([]);
    // The plain health check is an ordinary request and keeps its request line.
    expect(linesAbout('"/api/v1/health"').length).toBeGreaterThan(0);
    expect(t.log.entries().filter((entry) => entry.level === 50)).toEqual([]);
  });
});
