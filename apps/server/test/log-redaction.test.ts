import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { logOptions } from "../src/lib/log-options.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A logger with the server's options writing into an array, for reading what would be logged. */
function capture() {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  return { lines, text: () => lines.join(""), stream };
}

describe("what the log keeps out (issue 10 item 4)", () => {
  it("never prints a failed query's SQL parameters", async () => {
    const out = capture();
    const log = pino(logOptions("info"), out.stream);
    const error = await t.ctx.db
      .execute(sql`select ${"$argon2id$secret-hash-value"}::text, 1 / 0`)
      .catch((e: unknown) => e);
    expect(String(error)).toContain("secret-hash-value");
    log.error({ err: error }, "unhandled error");
    expect(out.text()).toContain("Failed query");
    expect(out.text()).not.toContain("secret-hash-value");
  });

  it("redacts secret fields at any usual depth", () => {
    const out = capture();
    const log = pino(logOptions("info"), out.stream);
    log.warn(
      {
        password: "p4ssword-value",
        body: { api_key: "sk-key-value", function: { headers: { "X-Token": "header-value" } } },
        config: { client_secret: "client-secret-value", authorization: "Bearer auth-value" },
      },
      "something",
    );
    for (const secret of ["p4ssword-value", "sk-key-value", "header-value", "client-secret-value", "auth-value"]) {
      expect(out.text()).not.toContain(secret);
    }
    expect(out.text()).toContain("[redacted]");
  });

  it("keeps room and link tokens out of the access log", async () => {
    const out = capture();
    const app = await buildApp(t.ctx, { logger: { ...logOptions("info"), stream: out.stream } });
    try {
      await app.inject({ method: "GET", url: "/api/v1/realtime?token=room-token-value" });
      await app.inject({ method: "GET", url: "/auth/reset-password?token=reset-token-value&lang=fr" });
      await app.inject({
        method: "GET",
        url: "/api/v1/health",
        headers: { authorization: "Bearer access-token-value", cookie: "parley_refresh=refresh-value" },
      });
      const text = out.text();
      expect(text).toContain("/api/v1/realtime?token=[redacted]");
      expect(text).toContain("lang=fr");
      for (const secret of ["room-token-value", "reset-token-value", "access-token-value", "refresh-value"]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });

  it("keeps a person's number, address and searches out of the access log", async () => {
    const out = capture();
    const app = await buildApp(t.ctx, { logger: { ...logOptions("info"), stream: out.stream } });
    try {
      await app.inject({ method: "GET", url: "/api/v1/privacy/subjects?phone=%2B14155550123" });
      await app.inject({ method: "GET", url: "/api/v1/privacy/subjects?email=jane%40example.com" });
      await app.inject({ method: "GET", url: "/api/v1/call-logs?search=Jane%20Doe&page=2" });
      const text = out.text();
      expect(text).toContain("/api/v1/privacy/subjects?phone=[redacted]");
      expect(text).toContain("page=2");
      for (const personal of ["4155550123", "jane@example.com", "jane%40example.com", "Jane"]) {
        expect(text).not.toContain(personal);
      }
    } finally {
      await app.close();
    }
  });
});
