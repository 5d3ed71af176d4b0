import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { KnowledgeDocument } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { settled } from "./support/documents.ts";

/** Issue 26 item 17: crawls named by host and path, and failed crawls that say what failed. */

let t: TestApp;
let site: Server;
let origin: string;
let host: string;

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>The ${title} page of the museum, long enough for a reader view to keep it as the article body.</p></article></body></html>`;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://site").pathname;
    if (path === "/robots.txt") {
      res.writeHead(404).end();
      return;
    }
    if (path === "/gone") {
      res.writeHead(404, "Not Found").end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(path.slice(1) || "home"));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  origin = `http://${host}`;
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await t.close();
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function crawl(token: string, url: string): Promise<KnowledgeDocument> {
  const res = await call(t, "POST", "/api/v1/documents/crawl_url", { token, body: { url, intensity: 1 } });
  expect(res.statusCode).toBe(201);
  return res.json<KnowledgeDocument>();
}

/** A 127.0.0.1 port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("crawl names", () => {
  it("names a crawl by host and path, so two crawls of one site differ", async () => {
    const a = await signedInUser(t);
    const guide = await crawl(a.token, `${origin}/guide/`);
    const blog = await crawl(a.token, `${origin}/blog?page=2`);
    const blogOther = await crawl(a.token, `${origin}/blog?page=3`);
    expect(guide.name).toBe(`${host}/guide`);
    expect(blog.name).toBe(`${host}/blog?page=2`);
    expect(blogOther.name).toBe(`${host}/blog?page=3`);
    expect(guide.url).toBe(`${origin}/guide/`);
    await Promise.all([guide, blog, blogOther].map((d) => settled(t, a.token, d.id)));
  });

  it("numbers a second crawl of the same page instead of repeating its name", async () => {
    const a = await signedInUser(t);
    const first = await crawl(a.token, `${origin}/`);
    const second = await crawl(a.token, `${origin}/`);
    const third = await crawl(a.token, `${origin}/`);
    expect([first.name, second.name, third.name]).toEqual([host, `${host} (2)`, `${host} (3)`]);
    await Promise.all([first, second, third].map((d) => settled(t, a.token, d.id)));
  });

  it("keeps the host and the end of a long path", async () => {
    const a = await signedInUser(t);
    const long = `${origin}/${"chapter-one/".repeat(8)}install/linux`;
    const doc = await crawl(a.token, long);
    expect(doc.name.startsWith(`${host}/…/`)).toBe(true);
    expect(doc.name.endsWith("/install/linux")).toBe(true);
    expect(Array.from(doc.name).length).toBeLessThanOrEqual(80);
    await settled(t, a.token, doc.id);
  });
});

describe("crawl failures", () => {
  it("says the connection was refused, naming the address, when nothing listens there", async () => {
    const a = await signedInUser(t);
    const port = await closedPort();
    const doc = await settled(t, a.token, (await crawl(a.token, `http://127.0.0.1:${port}/docs`)).id);
    expect(doc).toMatchObject({ status: "failed", error_code: "site_unreachable", chunk_count: 0 });
    expect(doc.error_message).toBe(
      `Could not read http://127.0.0.1:${port}/docs: 127.0.0.1:${port} refused the connection: nothing accepts connections there (ECONNREFUSED).`,
    );
  });

  it("names the HTTP status the start page answered", async () => {
    const a = await signedInUser(t);
    const doc = await settled(t, a.token, (await crawl(a.token, `${origin}/gone`)).id);
    expect(doc).toMatchObject({ status: "failed", error_code: "site_unreachable" });
    expect(doc.error_message).toBe(`Could not read ${origin}/gone: ${origin}/gone answered HTTP 404 (Not Found).`);
  });
});
