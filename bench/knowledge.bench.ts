// Knowledge base: ingest throughput (a 200-page PDF and a 200-section Markdown file, upload to ready,
// through the job runner) and search latency, keyword-only and hybrid, over 1,000 and then 10,000
// realistic chunks: documents written the way a business writes them (FAQ pages, policies, guides),
// cut by the product's own chunker (≈1,200 characters), embedded with 1,536 dimensions (OpenAI's
// default embeddings model) by a local double of the OpenAI protocol, in a workspace beside another
// workspace's rows. Searches go through the API, workspace-wide and as an assistant's call does.
// BENCH_EXPLAIN=1 also prints the plans of both rankings (EXPLAIN ANALYZE) at each size.
// KNOWLEDGE_BENCH_PROFILE=<file>.cpuprofile writes a CPU profile of the workspace-wide hybrid
// searches at the largest size (the server and, on PGlite, the database run in this process).
// PGlite runs in memory here; PARLEY_TEST_PGLITE_FILES=1 keeps it in files as an installation does
// (at 10,000 chunks each ranking's CPU was within the machine's noise of the in-memory one).
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { KnowledgeDocument } from "@parley/contract";
import { sql } from "drizzle-orm";
import { chunkSections } from "../apps/server/src/modules/knowledge-base/chunking.ts";
import { markdownSections } from "../apps/server/src/modules/knowledge-base/extract/markdown.ts";
import { candidateQuery } from "../apps/server/src/modules/knowledge-base/query-words.ts";
import { documentAgents, documentChunks, documents } from "../apps/server/src/modules/knowledge-base/schema.ts";
import { keywordRankingQuery, vectorRankingQuery } from "../apps/server/src/modules/knowledge-base/search.ts";
import {
  createVectorIndex,
  vectorIndexName,
  vectorLiteral,
  vectorSupport,
} from "../apps/server/src/modules/knowledge-base/vector-support.ts";
import { call, createTestApp, signedInUser, type TestApp, testDatabaseKind } from "../apps/server/test/harness.ts";
import { settled, upload } from "../apps/server/test/support/documents.ts";
import { makePdf } from "../apps/server/test/support/sample-documents.ts";
import { nowUs, startProfiler } from "./cpu-profile.ts";
import type { BenchResult } from "./run.ts";
import { random } from "./seeded-random.ts";

const PROFILE = process.env.KNOWLEDGE_BENCH_PROFILE;
const PAGES = 200;
const SIZES = [1_000, 10_000];
/** Another workspace's chunks in the same table: the tenant filter must hold in the plan. */
const OTHER_CHUNKS = 5_000;
const QUERIES = 200;
/** text-embedding-3-small, the default embeddings model. */
const DIMENSIONS = 1536;
const MODEL = "bench-embeddings-1536";

type Rng = ReturnType<typeof random>;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;

const FUNCTION_WORDS =
  "the a an of to and or in on for with at by from is are be can will may must our your you we it this that if when not all any each".split(
    " ",
  );
/** Topic words: a document leans on a few topics, and every document shares the common ones. */
const TOPICS: Record<string, string[]> = {
  common:
    "customer customers account order orders service team support staff business day days time week month information request contact phone email number details help policy please".split(
      " ",
    ),
  refunds:
    "refund refunds return returns receipt credit exchange damaged faulty item items purchase reimburse original payment card store condition packaging".split(
      " ",
    ),
  delivery:
    "delivery shipping parcel parcels courier tracking address dispatch arrive arrival express standard postcode signature locker collection warehouse delay".split(
      " ",
    ),
  billing:
    "invoice invoices billing charge charges subscription plan monthly annual tax vat discount coupon price prices fee fees balance statement overdue".split(
      " ",
    ),
  hours:
    "opening hours weekend weekends holiday holidays monday friday saturday sunday morning evening closed branch branches location parking entrance".split(
      " ",
    ),
  accounts:
    "password login sign username security verification identity profile settings notification privacy data personal delete update change reset".split(
      " ",
    ),
  appointments:
    "appointment appointments booking bookings schedule reschedule cancel cancellation slot availability clinic doctor visit confirm reminder waiting".split(
      " ",
    ),
  products:
    "product products model warranty repair spare battery charger manual installation device guarantee replacement stock size colour specification".split(
      " ",
    ),
  travel:
    "ticket tickets seat seats luggage baggage boarding gate platform departure journey passenger passengers fare upgrade timetable connection route".split(
      " ",
    ),
  food: "menu allergen allergens vegetarian vegan gluten table reservation dinner lunch breakfast kitchen chef dish dishes takeaway catering".split(
    " ",
  ),
};
const TOPIC_NAMES = Object.keys(TOPICS).filter((t) => t !== "common");
const HEADINGS =
  "Overview|How it works|Eligibility|Exceptions|Fees|Timing|Contact us|Before you start|Step by step|Frequently asked questions|Terms|Examples".split(
    "|",
  );

/** Skewed like real text: the first words of a list come up far more often than the last. */
const zipf = (rng: Rng, list: string[]) => list[Math.floor(list.length * rng() ** 2.2)] as string;

function sentence(rng: Rng, topics: string[]): string {
  const words: string[] = [];
  const length = 9 + Math.floor(rng() * 16);
  for (let i = 0; i < length; i += 1) {
    const r = rng();
    if (r < 0.42) words.push(pick(rng, FUNCTION_WORDS));
    else if (r < 0.62) words.push(zipf(rng, TOPICS.common ?? []));
    else if (r < 0.95) words.push(zipf(rng, TOPICS[pick(rng, topics)] ?? []));
    else words.push(String(Math.floor(rng() * 500)));
  }
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${rng() < 0.12 ? "?" : "."}`;
}

const paragraph = (rng: Rng, topics: string[], sentences: number) =>
  Array.from({ length: sentences }, () => sentence(rng, topics)).join(" ");

/** FAQ pages (short answers under question headings), policies (long sections) and guides (lists). */
function markdownDocument(rng: Rng, n: number): { name: string; text: string } {
  const topics = [pick(rng, TOPIC_NAMES), pick(rng, TOPIC_NAMES), pick(rng, TOPIC_NAMES)];
  const kind = n % 3;
  const lines: string[] = [`# ${topics[0]} ${["FAQ", "policy", "guide"][kind]} ${n}`, ""];
  const sections = 6 + Math.floor(rng() * 40);
  for (let s = 0; s < sections; s += 1) {
    if (kind === 0) {
      lines.push(`## ${sentence(rng, topics).replace(/\.$/, "?")}`, "");
      for (let p = 0; p < 1 + Math.floor(rng() * 3); p += 1) lines.push(paragraph(rng, topics, 2 + rng() * 4), "");
    } else if (kind === 1) {
      lines.push(`## ${s + 1}. ${pick(rng, HEADINGS)}`, "");
      for (let sub = 0; sub < 1 + Math.floor(rng() * 3); sub += 1) {
        lines.push(`### ${s + 1}.${sub + 1} ${pick(rng, HEADINGS)}`, "");
        for (let p = 0; p < 2 + Math.floor(rng() * 4); p += 1) lines.push(paragraph(rng, topics, 3 + rng() * 6), "");
      }
    } else {
      lines.push(`## ${pick(rng, HEADINGS)}`, "", paragraph(rng, topics, 2 + rng() * 3), "");
      for (let item = 0; item < 3 + Math.floor(rng() * 6); item += 1) lines.push(`- ${sentence(rng, topics)}`);
      lines.push("", paragraph(rng, topics, 3 + rng() * 5), "");
    }
  }
  return { name: `${topics[0]}-${n}.md`, text: lines.join("\n") };
}

function hash(word: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * A dense unit vector whose direction follows the words (feature hashing over a per-text noise
 * floor): texts that share words land close, every dimension is set as in a real model's output.
 */
export function embed(text: string): number[] {
  const v = new Array<number>(DIMENSIONS);
  const rng = random(hash(text, 7));
  for (let i = 0; i < DIMENSIONS; i += 1) v[i] = (rng() - 0.5) * 0.02;
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (FUNCTION_WORDS.includes(word)) continue;
    for (let k = 0; k < 4; k += 1) {
      const index = hash(word, k) % DIMENSIONS;
      v[index] = (v[index] ?? 0) + (k % 2 === 0 ? 1 : -1);
    }
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** The OpenAI embeddings protocol on 127.0.0.1, answering with `embed`. */
async function startEmbeddingsServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { model: string; input: string[] };
    const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Questions as a caller or an assistant asks them. */
export function questions(count: number): string[] {
  const rng = random(99);
  const openers = [
    "What is your",
    "How do I",
    "Can I",
    "Do you have",
    "When does the",
    "Is there a",
    "Where can I find",
  ];
  return Array.from({ length: count }, () => {
    const topic = TOPICS[pick(rng, TOPIC_NAMES)] ?? [];
    const words = Array.from({ length: 2 + Math.floor(rng() * 3) }, () => zipf(rng, topic));
    if (rng() < 0.5) words.push(zipf(rng, TOPICS.common ?? []));
    return `${pick(rng, openers)} ${words.join(" ")}?`;
  });
}

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

/**
 * Writes documents of the product's chunks (with their embeddings) straight to the tables until the
 * workspace holds `until` chunks: the search, not the ingest, is measured here.
 */
export async function seedChunks(
  t: TestApp,
  workspaceId: string,
  state: { chunks: number; documents: string[]; seed: number },
  until: number,
  withEmbeddings: boolean,
) {
  const rng = random(state.seed);
  while (state.chunks < until) {
    state.seed += 1;
    const source = markdownDocument(rng, state.seed);
    const chunks = chunkSections(markdownSections(source.text)).slice(0, until - state.chunks);
    const [doc] = await t.ctx.db
      .insert(documents)
      .values({ workspaceId, name: source.name, status: "ready", kind: "markdown", chunkCount: chunks.length })
      .returning();
    const documentId = doc?.id ?? "";
    state.documents.push(documentId);
    for (let start = 0; start < chunks.length; start += 100) {
      const rows = chunks.slice(start, start + 100).map((chunk, i) => {
        const base = sql`${documentId}::uuid, ${workspaceId}::uuid, ${start + i}, ${chunk.heading}, ${chunk.content}`;
        if (!withEmbeddings) return sql`(${base})`;
        const vector = vectorLiteral(embed(chunk.heading ? `${chunk.heading}\n${chunk.content}` : chunk.content));
        return sql`(${base}, ${`openai-compatible/${MODEL}`}, ${vector}::vector)`;
      });
      // A PostgreSQL without pgvector has no embedding column: its chunks are searched by keywords.
      const columns = withEmbeddings ? sql`, embedding_model, embedding` : sql``;
      await t.ctx.db.execute(sql`
        insert into document_chunks (document_id, workspace_id, position, heading, content${columns})
        values ${sql.join(rows, sql`, `)}`);
    }
    state.chunks += chunks.length;
  }
  await t.ctx.db.execute(sql`analyze documents, document_chunks, document_agents`);
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds used so far by this process and, on PostgreSQL, by the server processes of the
 * test database (read from /proc, so only when the database runs on this machine; else null). On a
 * shared machine latency measures the neighbours too; CPU per search does not.
 */
async function cpuMs(t: TestApp): Promise<{ own: number; database: number | null }> {
  const usage = process.cpuUsage();
  const own = (usage.user + usage.system) / 1000;
  if (testDatabaseKind !== "postgres") return { own, database: null };
  const backends = (await t.ctx.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  )) as unknown as { rows: { pid: number }[] };
  try {
    let ticks = 0;
    for (const { pid } of backends.rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return { own, database: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return { own, database: null };
  }
}

async function searchLatency(t: TestApp, token: string, label: string, chunks: number, agentId?: string) {
  const samples: number[] = [];
  let mode = "";
  const asked = questions(QUERIES);
  for (const q of asked.slice(0, 10)) {
    await call(t, "GET", `/api/v1/documents/search?q=${encodeURIComponent(q)}`, { token });
  }
  const before = await cpuMs(t);
  for (const q of asked) {
    const agent = agentId ? `&agent_id=${agentId}` : "";
    const start = performance.now();
    const res = await call(t, "GET", `/api/v1/documents/search?q=${encodeURIComponent(q)}${agent}`, { token });
    samples.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`search: ${res.statusCode} ${res.body}`);
    mode = res.json<{ mode: string }>().mode;
  }
  const after = await cpuMs(t);
  samples.sort((a, b) => a - b);
  const perSearch = (from: number | null, to: number | null) =>
    from === null || to === null ? "" : +((to - from) / asked.length).toFixed(2);
  return {
    operation: `search ${label} (${mode}) over ${chunks} chunks, ${testDatabaseKind}`,
    p50_ms: +percentile(samples, 50).toFixed(2),
    p95_ms: +percentile(samples, 95).toFixed(2),
    // The server's (and on PGlite the database's) CPU per search, then PostgreSQL's own.
    cpu_ms: perSearch(before.own, after.own),
    db_cpu_ms: perSearch(before.database, after.database),
  };
}

async function explain(t: TestApp, workspaceId: string, chunks: number, hybrid: boolean) {
  const q = questions(1)[0] ?? "";
  const candidates = (await candidateQuery(t.ctx.db, { workspaceId }, q)) ?? "";
  const plans: { toSQL(): { sql: string; params: unknown[] } }[] = [
    keywordRankingQuery(t.ctx.db, { workspaceId }, q, candidates),
  ];
  if (hybrid) plans.push(vectorRankingQuery(t.ctx.db, { workspaceId }, `openai-compatible/${MODEL}`, embed(q)));
  for (const query of plans) {
    const { sql: text, params } = query.toSQL();
    const inline = params.reduce<string>(
      (s, p, i) => s.replaceAll(new RegExp(`\\$${i + 1}(?!\\d)`, "g"), `'${String(p).replaceAll("'", "''")}'`),
      text,
    );
    // As the search runs it: the vector ranking lets the index scan go on past filtered-out rows.
    const result = await t.ctx.db.transaction(async (tx) => {
      if (hybrid) await tx.execute(sql`set local hnsw.iterative_scan = strict_order`);
      return tx.execute(sql.raw(`explain (analyze, buffers) ${inline}`));
    });
    const rows = (result as unknown as { rows: Record<string, string>[] }).rows;
    const plan = rows.map((r) => String(Object.values(r)[0]).replace(/'\[[-0-9.,e]+\]'/g, "'[…query vector…]'"));
    console.log(`\n-- ${testDatabaseKind}, ${chunks} chunks:\n${plan.join("\n")}`);
  }
}

export async function run(): Promise<BenchResult> {
  const embeddings = await startEmbeddingsServer();
  // Seeding 10,000 chunks with embeddings takes longer than an access token lives on a busy machine.
  const t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", ACCESS_TOKEN_TTL_SECONDS: "86400" });
  try {
    const a = await signedInUser(t);
    const rows: Record<string, string | number>[] = [];
    const line = (n: number) =>
      `Item ${n} covers ${pick(random(n), TOPICS.refunds ?? [])} for branch ${n % 97}; staff answer questions about order ${n}.`;
    const pdf = makePdf(
      Array.from({ length: PAGES }, (_, p) => Array.from({ length: 20 }, (_, l) => line(p * 20 + l))),
    );
    rows.push(await ingest(t, a.token, "200-page.pdf", pdf));
    const markdown = Array.from(
      { length: PAGES },
      (_, p) => `## Section ${p}\n\n${Array.from({ length: 20 }, (_, l) => line(p * 20 + l)).join(" ")}\n`,
    ).join("\n");
    rows.push(await ingest(t, a.token, "200-section.md", Buffer.from(markdown)));

    const hybrid = await vectorSupport(t.ctx.db, console);
    const other = await signedInUser(t);
    await seedChunks(t, other.workspaceId, { chunks: 0, documents: [], seed: 1_000_000 }, OTHER_CHUNKS, hybrid);
    const b = await signedInUser(t);
    const agent = (await call(t, "POST", "/api/v1/agents", { token: b.token, body: { name: "Desk" } })).json<{
      id: string;
    }>();
    if (hybrid) {
      await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
        token: b.token,
        body: { credentials: { base_url: embeddings.baseUrl } },
      });
    }
    const state = { chunks: 0, documents: [] as string[], seed: 0 };
    for (const size of SIZES) {
      const seedStart = performance.now();
      // Chunks are written without the embeddings index, then it is built over them, as on an
      // installation upgraded with embeddings already stored (incremental HNSW inserts are slower).
      if (hybrid) await t.ctx.db.execute(sql.raw(`drop index if exists ${vectorIndexName(DIMENSIONS)}`));
      await seedChunks(t, b.workspaceId, state, size, hybrid);
      const indexStart = performance.now();
      if (hybrid) await createVectorIndex(t.ctx.db, DIMENSIONS);
      const indexSeconds = ((performance.now() - indexStart) / 1000).toFixed(1);
      const seedSeconds = ((performance.now() - seedStart) / 1000).toFixed(1);
      // The assistant reads two documents in three, as one linked to most of a knowledge base.
      await t.ctx.db
        .insert(documentAgents)
        .values(state.documents.filter((_, i) => i % 3 !== 2).map((documentId) => ({ documentId, agentId: agent.id })))
        .onConflictDoNothing();
      const words = await t.ctx.db.execute(
        sql`select avg(length(${documentChunks.content}))::int as chars from ${documentChunks} where ${documentChunks.workspaceId} = ${b.workspaceId}`,
      );
      const chars = (words as unknown as { rows: { chars: number }[] }).rows[0]?.chars ?? 0;
      rows.push({
        operation: `seeded ${size} chunks in ${state.documents.length} documents (mean ${chars} chars) in ${seedSeconds} s, index built in ${indexSeconds} s`,
      });
      await call(t, "PUT", "/api/v1/documents/settings", {
        token: b.token,
        body: { embeddings_provider: null, embeddings_model: null },
      });
      rows.push(await searchLatency(t, b.token, "keyword", size));
      rows.push(await searchLatency(t, b.token, "keyword, assistant's documents", size, agent.id));
      if (hybrid) {
        await call(t, "PUT", "/api/v1/documents/settings", {
          token: b.token,
          body: { embeddings_provider: "openai-compatible", embeddings_model: MODEL },
        });
        const profiling = PROFILE && size === SIZES.at(-1) ? await startProfiler() : null;
        const from = nowUs();
        rows.push(await searchLatency(t, b.token, "hybrid", size));
        if (profiling && PROFILE) writeFileSync(PROFILE, JSON.stringify(await profiling.stop(from)));
        rows.push(await searchLatency(t, b.token, "hybrid, assistant's documents", size, agent.id));
      }
      if (process.env.BENCH_EXPLAIN) await explain(t, b.workspaceId, size, hybrid);
    }
    return { name: "knowledge", rows };
  } finally {
    await t.close();
    await embeddings.close();
  }
}
