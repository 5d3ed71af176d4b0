import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import type { Config } from "../src/config.ts";
import { createLogger, type LogFormat } from "../src/lib/log-options.ts";
import { createTestApp, login, seedUser, type TestApp } from "./harness.ts";

/**
 * Issue 35 item 4: one log line a request at most, written when it completes — none at the default
 * level for a success, info for a client error with its reason, error for a server error with
 * everything an operator needs; LOG_REQUESTS=all brings every request back at info.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  const { user, password } = await seedUser(t);
  ({ token } = await login(t, user.username, password));
}, 240_000);
afterAll(() => t?.close());

/** The server's app on the test context, logging as main.ts does into `lines`, with a route that fails. */
async function loggedApp(options: { logRequests?: Config["logRequests"]; format?: LogFormat } = {}) {
  const lines: string[] = [];
  const log = createLogger({ level: "info", format: options.format ?? "json" }, { write: (l) => lines.push(l) });
  const ctx = { ...t.ctx, config: { ...t.ctx.config, logRequests: options.logRequests ?? "failures" } };
  const app = await buildApp(ctx, { loggerInstance: log });
  app.get("/api/v1/test-failure", async () => {
    throw new Error("the disk is on fire");
  });
  await app.ready();
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { app, lines, entries };
}

const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

describe("request lines (LOG_REQUESTS=failures, the default)", () => {
  it("writes nothing for a successful request at the default level", async () => {
    const { app, lines } = await loggedApp();
    try {
      const me = await app.inject({
        method: "GET",
        url: "/api/v1/users/me",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode, me.body).toBe(200);
      expect((await app.inject({ method: "GET", url: "/api/v1/health" })).statusCode).toBe(200);
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it("writes one info line for a client error, with the request id, status, duration and reason", async () => {
    const { app, entries } = await loggedApp();
    try {
      const res = await app.inject({ method: "GET", url: "/api/v1/users/me?token=leaked-link-token" });
      expect(res.statusCode).toBe(401);
      const mine = entries().filter((e) => e.reqId === res.headers["x-request-id"]);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        level: LEVEL.info,
        msg: "request completed",
        req: { method: "GET", url: "/api/v1/users/me?token=[redacted]" },
        res: { statusCode: 401 },
        detail: expect.any(String),
      });
      expect(mine[0]?.responseTime).toEqual(expect.any(Number));
      expect(JSON.stringify(entries())).not.toContain("leaked-link-token");
    } finally {
      await app.close();
    }
  });

  it("writes a server error at error with the request id, method, redacted address, status, duration and error", async () => {
    const { app, entries } = await loggedApp();
    try {
      const res = await app.inject({
        method: "GET",
        url: "/api/v1/test-failure?access_token=secret-in-query&page=2",
        headers: { "x-request-id": "req-test-1", authorization: "Bearer header-secret" },
      });
      expect(res.statusCode).toBe(500);
      const [line, ...more] = entries().filter((e) => e.msg === "request failed");
      expect(more).toEqual([]);
      expect(line).toMatchObject({
        level: LEVEL.error,
        reqId: "req-test-1",
        req: { method: "GET", url: "/api/v1/test-failure?access_token=[redacted]&page=2" },
        res: { statusCode: 500 },
        detail: expect.any(String),
      });
      expect(line?.responseTime).toEqual(expect.any(Number));
      // The error itself is in the handler's line of the same request.
      const handled = entries().find((e) => e.reqId === "req-test-1" && e.msg === "unhandled error");
      expect(JSON.stringify(handled?.err)).toContain("the disk is on fire");
      const text = JSON.stringify(entries());
      expect(text).not.toContain("secret-in-query");
      expect(text).not.toContain("header-secret");
    } finally {
      await app.close();
    }
  });

  it("writes the client error's line readably with LOG_FORMAT=pretty", async () => {
    const { app, lines } = await loggedApp({ format: "pretty" });
    try {
      const res = await app.inject({
        method: "GET",
        url: "/api/v1/users/me",
        headers: { "x-request-id": "req-pretty" },
      });
      expect(res.statusCode).toBe(401);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^\S+Z {2}INFO {3}request completed {2}reqId=req-pretty {2}req="GET \/api\/v1\/users\/me" {2}res=401 {2}detail=/,
      );
    } finally {
      await app.close();
    }
  });
});

describe("LOG_REQUESTS", () => {
  it("all: every successful request gets its one info line", async () => {
    const { app, entries } = await loggedApp({ logRequests: "all" });
    try {
      const res = await app.inject({
        method: "GET",
        url: "/api/v1/users/me",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      const mine = entries().filter((e) => e.reqId === res.headers["x-request-id"]);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        level: LEVEL.info,
        msg: "request completed",
        req: { method: "GET", url: "/api/v1/users/me" },
        res: { statusCode: 200 },
      });
      // Headers (the bearer token) are never part of the line.
      expect(JSON.stringify(mine[0])).not.toContain(token);
    } finally {
      await app.close();
    }
  });

  it("errors: a client error is not logged at info, a server error still is", async () => {
    const { app, entries } = await loggedApp({ logRequests: "errors" });
    try {
      expect((await app.inject({ method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(401);
      expect(entries().filter((e) => e.msg === "request completed")).toEqual([]);
      expect((await app.inject({ method: "GET", url: "/api/v1/test-failure" })).statusCode).toBe(500);
      expect(entries().filter((e) => e.msg === "request failed")).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it("is read from the environment, failures by default, and refuses an unknown value", async () => {
    const { loadConfig } = await import("../src/config.ts");
    const base = { NODE_ENV: "test", PARLEY_SECRET_KEY: "test-secret-key-test-secret-key-0123456789" };
    expect(loadConfig(base).logRequests).toBe("failures");
    expect(loadConfig({ ...base, LOG_REQUESTS: "all" }).logRequests).toBe("all");
    expect(() => loadConfig({ ...base, LOG_REQUESTS: "some" })).toThrow(/LOG_REQUESTS/);
  });
});
