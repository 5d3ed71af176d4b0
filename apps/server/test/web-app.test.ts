import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), "parley-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=root></div>");
  writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log(1)");
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(() => t.close());

describe("serving the web app", () => {
  it("answers every non-API path with index.html so the client router can take over", async () => {
    for (const url of ["/", "/home", "/assistants/123", "/auth/login?x=1"]) {
      const res = await call(t, "GET", url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).toContain("<div id=root>");
    }
  });

  it("serves built assets with long caching", async () => {
    const res = await call(t, "GET", "/assets/app-abc123.js");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toMatch(/immutable/);
  });

  it("keeps JSON 404s for unknown API routes", async () => {
    const res = await call(t, "GET", "/api/v1/nothing-here");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty("detail");
  });
});
