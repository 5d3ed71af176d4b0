import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { KnowledgeDocument } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { search, settled } from "./support/documents.ts";

let t: TestApp;
let site: Server;
let origin: string;
const hits: string[] = [];
let homeWord = "lighthouse";

const page = (title: string, text: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${text} This paragraph is long enough for a reader view to keep it as the article body.</p>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(" ")}</article></body></html>`;

/** A small site: home → a, b, a private page and another host; a → a/deep → a/deeper. */
function pages(): Record<string, string> {
  const port = new URL(origin).port;
  return {
    "/": page("Home", `Welcome to the ${homeWord} museum.`, [
      "/a",
      "/b#top",
      "/private/x",
      `http://localhost:${port}/other`,
      "/a",
    ]),
    "/a": page("Exhibits", "The whale skeleton hangs in hall A.", ["/a/deep", "/"]),
    "/b": page("Tickets", "Tickets cost twelve euros.", []),
    "/a/deep": page("Archive", "The archive keeps ship logs from 1850.", ["/a/deeper"]),
    "/a/deeper": page("Vault", "The vault holds the captain's compass.", []),
    "/private/x": page("Staff", "The staff code is 4321.", []),
    "/other": page("Other", "Another host's page.", []),
  };
}

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(`${req.headers.host} ${path}`);
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n");
      return;
    }
    const html = pages()[path];
    if (!html) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await t.close();
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function crawl(token: string, intensity: number, app = t) {
  const res = await call(app, "POST", "/api/v1/documents/crawl_url", { token, body: { url: `${origin}/`, intensity } });
  expect(res.statusCode).toBe(201);
  const created = res.json<KnowledgeDocument>();
  expect(created).toMatchObject({ kind: "web", url: `${origin}/`, intensity, status: "pending" });
  return settled(app, token, created.id);
}

const found = async (token: string, q: string) => (await search(t, token, q)).results.map((r) => r.text);

describe("crawling", () => {
  it("reads only the page at intensity 1", async () => {
    const a = await signedInUser(t);
    const doc = await crawl(a.token, 1);
    expect(doc).toMatchObject({ status: "ready", pages_done: 1, pages_found: 1 });
    expect(await found(a.token, "museum")).toHaveLength(1);
    expect(await found(a.token, "whale")).toEqual([]);
  });

  it("follows same-site links one level down at 2, honouring robots.txt", async () => {
    const a = await signedInUser(t);
    hits.length = 0;
    const doc = await crawl(a.token, 2);
    expect(doc).toMatchObject({ status: "ready", pages_done: 3, pages_found: 3 });
    expect((await found(a.token, "whale"))[0]).toMatch(/hall A/);
    expect((await found(a.token, "tickets"))[0]).toMatch(/twelve euros/);
    expect(await found(a.token, "archive")).toEqual([]);
    expect(await found(a.token, "staff code")).toEqual([]);
    expect(hits.some((h) => h.includes("/private"))).toBe(false);
    expect(hits.some((h) => h.startsWith("localhost"))).toBe(false);
    // Headings carry the page title.
    expect((await search(t, a.token, "whale")).results[0]?.heading).toBe("Exhibits");
  });

  it("goes two levels down at 3 and no further", async () => {
    const a = await signedInUser(t);
    const doc = await crawl(a.token, 3);
    expect(doc).toMatchObject({ status: "ready", pages_done: 4, pages_found: 4 });
    expect((await found(a.token, "ship logs"))[0]).toMatch(/1850/);
    expect(await found(a.token, "compass")).toEqual([]);
  });

  it("refreshes a crawl by replacing its chunks", async () => {
    const a = await signedInUser(t);
    const doc = await crawl(a.token, 1);
    homeWord = "windmill";
    try {
      const res = await call(t, "POST", `/api/v1/documents/${doc.id}/refresh`, { token: a.token });
      expect(res.json<KnowledgeDocument>().status).toBe("pending");
      const again = await settled(t, a.token, doc.id);
      expect(again.status).toBe("ready");
      expect(await found(a.token, "windmill")).toHaveLength(1);
      expect(await found(a.token, "lighthouse")).toEqual([]);
    } finally {
      homeWord = "lighthouse";
    }
  });

  it("refuses 127.0.0.1 without the allow-list", async () => {
    const strict = await createTestApp();
    try {
      const a = await signedInUser(strict);
      const doc = await crawl(a.token, 1, strict);
      expect(doc.status).toBe("failed");
      expect(doc.error_message).toMatch(/Refusing to connect to 127\.0\.0\.1.*PARLEY_ALLOWED_PRIVATE_HOSTS/);
      expect(doc.chunk_count).toBe(0);
    } finally {
      await strict.close();
    }
  }, 120_000);

  it("validates the crawl request", async () => {
    const a = await signedInUser(t);
    const bad = await call(t, "POST", "/api/v1/documents/crawl_url", {
      token: a.token,
      body: { url: "ftp://example.com", intensity: 4 },
    });
    expect(bad.statusCode).toBe(422);
  });
});
