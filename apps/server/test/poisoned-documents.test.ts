import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, createDeflateRaw } from "node:zlib";
import { type DocumentFailure, KnowledgeDocument } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "./harness.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "./support/postgres-database.ts";
import { makePdf, multipartBody } from "./support/sample-documents.ts";
import { type ServerProcess, signInAdmin, startServerProcess, stopServerProcess } from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * Issue 25, items 3 and 4: files made to exhaust a reader (2 million paragraphs, a zip bomb, 20,000
 * pages) are uploaded to a server in its own process, as `npm start` runs it, while /health is
 * asked over and over and the process's resident memory is read from /proc. The server must keep
 * answering (p99 under 200 ms), stay under 1 GB, and fail each document with a reason.
 */

const HEALTH_P99_MS = 200;
const MAX_RSS_BYTES = 1024 * 1024 * 1024;

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

interface PackedEntry {
  name: string;
  packed: Buffer;
  crc: number;
  size: number;
}

/** Deflates `repeat` copies of `middle` between `head` and `tail` as a stream: the whole text is never in memory. */
async function packRepeated(name: string, head: string, middle: string, repeat: number, tail: string) {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  // Written in blocks of many copies, so the stream sees large writes.
  const block = Buffer.from(middle.repeat(Math.max(1, Math.floor((1024 * 1024) / middle.length))));
  const perBlock = block.length / Buffer.byteLength(middle);
  let crc = 0;
  let size = 0;
  const write = async (data: Buffer) => {
    crc = crc32(data, crc);
    size += data.length;
    if (!deflate.write(data)) await new Promise((resolve) => deflate.once("drain", resolve));
  };
  await write(Buffer.from(head));
  let left = repeat;
  for (; left >= perBlock; left -= perBlock) await write(block);
  if (left > 0) await write(Buffer.from(middle.repeat(left)));
  await write(Buffer.from(tail));
  deflate.end();
  await ended;
  return { name, packed: Buffer.concat(out), crc, size } satisfies PackedEntry;
}

const packText = (name: string, text: string) => packRepeated(name, "", text, 1, "");

/** A ZIP archive of already-deflated entries (the local header and directory entry share their fields). */
function zipOf(entries: PackedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0);
    fields.writeUInt16LE(8, 4);
    fields.writeUInt32LE(entry.crc >>> 0, 10);
    fields.writeUInt32LE(entry.packed.length, 14);
    fields.writeUInt32LE(entry.size, 18);
    fields.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), fields, name]);
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10);
    centrals.push(Buffer.concat([Buffer.from([0x50, 0x4b, 1, 2, 20, 0]), fields, tail, name]));
    locals.push(local, entry.packed);
    offset += local.length + entry.packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A Word document whose body is `repeat` copies of `paragraph` XML. */
async function wordFile(paragraph: string, repeat: number): Promise<Buffer> {
  const head = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`;
  return zipOf([
    await packText("[Content_Types].xml", CONTENT_TYPES),
    await packText("_rels/.rels", RELS),
    await packRepeated("word/document.xml", head, paragraph, repeat, "</w:body></w:document>"),
  ]);
}

/** The process's resident memory, as the kernel counts it (worker threads included). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) * 1024;
}

/**
 * How long, at least, /health is watched from the upload on: p99 is a percentile of a window (a
 * few hundred answers), as a monitor computes it, not the slowest of the handful a quick refusal
 * leaves time for.
 */
const WINDOW_MS = 15_000;

/** Asks /health one request after another and reads the process's memory, until stopped (WINDOW_MS at least). */
function watch(server: ServerProcess) {
  const latencies: number[] = [];
  let maxRss = 0;
  let running = true;
  const pid = server.child.pid ?? 0;
  const windowEnds = Date.now() + WINDOW_MS;
  const health = (async () => {
    while (running || Date.now() < windowEnds) {
      const started = performance.now();
      const res = await fetch(`${server.base}/api/v1/health`, { signal: AbortSignal.timeout(10_000) }).catch(
        () => null,
      );
      latencies.push(res?.ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      await res?.arrayBuffer();
      maxRss = Math.max(maxRss, residentBytes(pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await health;
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.POSITIVE_INFINITY;
    return { samples: latencies.length, p99, max: sorted.at(-1) ?? 0, maxRss };
  };
}

let server: ServerProcess;
let database: PostgresDatabase | undefined;
let token: string;

beforeAll(async () => {
  database = testDatabaseKind === "postgres" ? await freshPostgresDatabase("parley_poisoned") : undefined;
  server = await startServerProcess({
    dataDir: mkdtempSync(path.join(tmpdir(), "parley-poisoned-")),
    ...(database ? { databaseUrl: database.url } : {}),
  });
  token = await signInAdmin(server.base);
  // What a fresh process does once is not what a poisoned document costs: a first, plain document
  // loads the reader thread, and meanwhile the start-up warm-up in the background (compiling the
  // local voice) ends, before any watch starts.
  const warm = await uploadToServer("warm-up.txt", Buffer.from("A plain document that reads at once.\n"));
  await until(
    () => readDocument(warm.id),
    (doc) => doc.status === "ready" || doc.status === "failed",
    "the warm-up document to settle",
    120_000,
  );
}, 300_000);

afterAll(async () => {
  await stopServerProcess(server);
  await database?.drop();
}, 60_000);

async function uploadToServer(name: string, data: Buffer): Promise<KnowledgeDocument> {
  const { payload, headers } = multipartBody([{ name, data }]);
  const res = await fetch(`${server.base}/api/v1/documents/upload`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: payload,
  });
  expect(res.status).toBe(201);
  const [document] = ((await res.json()) as { documents: KnowledgeDocument[] }).documents;
  if (!document) throw new Error("no document in the answer");
  return document;
}

const readDocument = async (id: string) => {
  const res = await fetch(`${server.base}/api/v1/documents/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return KnowledgeDocument.parse(await res.json());
};

const POISONS: { what: string; name: string; make: () => Promise<Buffer>; failure: DocumentFailure }[] = [
  {
    what: "a Word document of 2 million paragraphs",
    name: "paragraphs.docx",
    make: () => wordFile("<w:p/>", 2_000_000),
    failure: "too_many_paragraphs",
  },
  {
    what: "a zip bomb (a Word document unpacking to 256 MB)",
    name: "bomb.docx",
    make: () =>
      wordFile(
        `<w:p><w:r><w:t>${"All work and no play makes a dull chunk. ".repeat(24)}</w:t></w:r></w:p>`,
        256 * 1024,
      ),
    failure: "too_large",
  },
  {
    what: "a PDF of 20,000 pages",
    name: "pages.pdf",
    make: async () => makePdf(Array.from({ length: 20_000 }, (_, i) => [`Page ${i + 1} of the endless manual.`])),
    failure: "too_many_pages",
  },
];

describe("poisoned documents", () => {
  it.each(POISONS)(
    "$what fails with a reason while the server keeps answering",
    async (poison) => {
      const data = await poison.make();
      const stop = watch(server);
      const uploaded = await uploadToServer(poison.name, data);
      const failed = await until(
        () => readDocument(uploaded.id),
        (doc) => doc.status === "failed" || doc.status === "ready",
        `${poison.name} to settle`,
        90_000,
      );
      const seen = await stop();
      console.info(
        `${poison.name} (${data.length} bytes): ${seen.samples} health checks, p99 ${seen.p99.toFixed(1)} ms, max ${seen.max.toFixed(1)} ms, max RSS ${(seen.maxRss / 1024 / 1024).toFixed(0)} MB`,
      );
      expect(failed).toMatchObject({ status: "failed", error_code: poison.failure, chunk_count: 0 });
      expect(failed.error_message).toMatch(/\w{3,}.*\./);
      expect(seen.p99).toBeLessThan(HEALTH_P99_MS);
      expect(seen.maxRss).toBeLessThan(MAX_RSS_BYTES);
      expect(server.child.exitCode).toBeNull();
    },
    180_000,
  );
});
