import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type TestApp } from "./harness.ts";

const INDEX = "<!doctype html><div id=root></div>";
const LOGIN = '<!doctype html><link rel="modulepreload" href="/assets/login-page-abc.js"><div id=root></div>';
const SCRIPT = `console.log(${JSON.stringify("parley ".repeat(200))})`;
const STYLE = `body { margin: 0; padding: 0; font-family: Inter, sans-serif; }`.repeat(20);

/** A built file with the .br and .gz copies the web build writes beside it. */
function writeBuilt(dist: string, file: string, text: string, encodings: ("br" | "gz")[] = ["br", "gz"]) {
  writeFileSync(path.join(dist, file), text);
  if (encodings.includes("br")) writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(text));
  if (encodings.includes("gz")) writeFileSync(path.join(dist, `${file}.gz`), gzipSync(text));
}

let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), "parley-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeBuilt(dist, "index.html", INDEX);
  mkdirSync(path.join(dist, "auth"));
  writeBuilt(dist, path.join("auth", "login.html"), LOGIN);
  writeBuilt(dist, path.join("assets", "app-abc123.js"), SCRIPT);
  writeBuilt(dist, path.join("assets", "style-def456.css"), STYLE, ["gz"]);
  writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(() => t.close());

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: "GET", url, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });

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

describe("precompressed assets", () => {
  it("sends the brotli copy when the client accepts brotli, preferring it to gzip", async () => {
    for (const accept of ["gzip, deflate, br", "br", "gzip, br, zstd"]) {
      const res = await get("/assets/app-abc123.js", accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers["content-encoding"], accept).toBe("br");
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(Number(res.headers["content-length"])).toBeLessThan(SCRIPT.length);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    }
  });

  it("sends the gzip copy to a client that accepts gzip only", async () => {
    const res = await get("/assets/app-abc123.js", "gzip");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers["cache-control"]).toMatch(/immutable/);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it("falls back to gzip when a file has no brotli copy", async () => {
    const res = await get("/assets/style-def456.css", "br, gzip");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["content-type"]).toMatch(/text\/css/);
    expect(gunzipSync(res.rawPayload).toString()).toBe(STYLE);
  });

  it("sends the plain file, still varying on Accept-Encoding, to a client that accepts no compression", async () => {
    for (const accept of [undefined, "identity"]) {
      const res = await get("/assets/app-abc123.js", accept);
      expect(res.headers["content-encoding"], accept).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(SCRIPT);
    }
  });

  it("sends the plain file when it has no compressed copy", async () => {
    const res = await get("/favicon.svg", "br, gzip");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toBe("<svg/>");
  });

  it("compresses index.html for client routes too and never lets it be cached unrevalidated", async () => {
    for (const url of ["/", "/auth/signup-sso", "/assistants/42"]) {
      const res = await get(url, "gzip, deflate, br");
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"], url).toBe("br");
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
    }
    const plain = await get("/assistants");
    expect(plain.headers["cache-control"]).toBe("no-cache");
    expect(plain.body).toBe(INDEX);
  });
});

describe("a page with HTML of its own", () => {
  it("gets it at its exact path, compressed and revalidated like index.html", async () => {
    for (const url of ["/auth/login", "/auth/login?email=a%40b.co"]) {
      const res = await get(url, "gzip, br");
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"]).toBe("br");
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(LOGIN);
    }
    expect((await get("/auth/login")).body).toBe(LOGIN);
  });

  it("leaves every other path, its neighbours included, to index.html", async () => {
    for (const url of ["/auth/signup-sso", "/auth/login/extra", "/auth", "/"]) {
      expect((await get(url)).body, url).toBe(INDEX);
    }
  });
});
