// Knowledge base on the embedded database: ingest throughput (a 200-page PDF and a 200-section
// Markdown file, upload to ready, through the job runner) and search latency over 10,000 chunks,
// keyword-only and hybrid (embeddings from a local double of the OpenAI protocol).
import { performance } from "node:perf_hooks";
import type { KnowledgeDocument } from "@parley/contract";
import { documentChunks, documents } from "../apps/server/src/modules/knowledge-base/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "../apps/server/test/harness.ts";
import { settled, upload } from "../apps/server/test/support/documents.ts";
import { startEmbeddingsDouble } from "../apps/server/test/support/embeddings-double.ts";
import { makePdf } from "../apps/server/test/support/sample-documents.ts";
import type { BenchResult } from "./run.ts";

const PAGES = 200;
const CHUNKS = 10_000;
const QUERIES = 200;
const WORDS =
  "refund parcel delivery invoice garage parking ticket museum whale archive compass lunch dinner holiday".split(" ");

const sentence = (n: number) =>
  `Item ${n} covers ${WORDS[n % WORDS.length]} and ${WORDS[(n * 7) % WORDS.length]} for branch ${n % 97}; staff answer questions about order ${n}.`;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function ingest(t: TestApp, token: string, name: string, data: Buffer) {
  const start = performance.now();
  const res = await upload(t, token, [{ name, data }]);
  const id = res.json<{ documents: KnowledgeDocument[] }>().documents[0]?.id ?? "";
  const doc = await settled(t, token, id, 600_000);
  const seconds = (performance.now() - start) / 1000;
  if (doc.status !== "ready") throw new Error(`${name}: ${doc.error_message}`);
  return {
    operation: `ingest ${name}`,
    pages: PAGES,
    chunks: doc.chunk_count,
    seconds: +seconds.toFixed(2),
    pages_per_second: +(PAGES / seconds).toFixed(1),
  };
}

async function searchLatency(t: TestApp, token: string, label: string) {
  const samples: number[] = [];
  let mode = "";
  for (let i = 0; i < QUERIES; i += 1) {
    const q = `What about ${WORDS[i % WORDS.length]} for branch ${i % 97}?`;
    const start = performance.now();
    const res = await call(t, "GET", `/api/v1/documents/search?q=${encodeURIComponent(q)}`, { token });
    samples.push(performance.now() - start);
    mode = res.json<{ mode: string }>().mode;
  }
  samples.sort((a, b) => a - b);
  return {
    operation: `search ${label} (${mode}) over ${CHUNKS} chunks`,
    p50_ms: +percentile(samples, 50).toFixed(2),
    p95_ms: +percentile(samples, 95).toFixed(2),
  };
}

export async function run(): Promise<BenchResult> {
  const double = await startEmbeddingsDouble();
  const t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  try {
    const a = await signedInUser(t);
    const rows: Record<string, string | number>[] = [];
    const pdf = makePdf(
      Array.from({ length: PAGES }, (_, p) => Array.from({ length: 20 }, (_, l) => sentence(p * 20 + l))),
    );
    rows.push(await ingest(t, a.token, "200-page.pdf", pdf));
    const markdown = Array.from(
      { length: PAGES },
      (_, p) => `## Section ${p}\n\n${Array.from({ length: 20 }, (_, l) => sentence(p * 20 + l)).join(" ")}\n`,
    ).join("\n");
    rows.push(await ingest(t, a.token, "200-section.md", Buffer.from(markdown)));

    // 10,000 chunks written straight to the tables: the search, not the ingest, is measured here.
    const b = await signedInUser(t);
    const tenant = { workspaceId: b.workspaceId };
    const [doc] = await t.ctx.db
      .insert(documents)
      .values({ ...tenant, name: "bulk", status: "ready", kind: "text", chunkCount: CHUNKS })
      .returning();
    for (let start = 0; start < CHUNKS; start += 500) {
      await t.ctx.db.insert(documentChunks).values(
        Array.from({ length: 500 }, (_, i) => ({
          ...tenant,
          documentId: doc?.id ?? "",
          position: start + i,
          heading: `Branch ${(start + i) % 97}`,
          content: sentence(start + i),
        })),
      );
    }
    rows.push(await searchLatency(t, b.token, "keyword"));

    await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
      token: b.token,
      body: { credentials: { base_url: double.baseUrl } },
    });
    await call(t, "PUT", "/api/v1/documents/settings", {
      token: b.token,
      body: { embeddings_provider: "openai-compatible", embeddings_model: "concepts-1" },
    });
    const embedStart = performance.now();
    while (double.inputs < CHUNKS) await new Promise((r) => setTimeout(r, 100));
    // The last batch is stored just after the double answers it.
    await new Promise((r) => setTimeout(r, 500));
    rows.push({
      operation: `embed ${CHUNKS} chunks (local double)`,
      seconds: +((performance.now() - embedStart) / 1000).toFixed(2),
    });
    rows.push(await searchLatency(t, b.token, "hybrid"));
    return { name: "knowledge", rows };
  } finally {
    await t.close();
    await double.close();
  }
}
