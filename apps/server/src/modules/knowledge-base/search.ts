import type { DocumentSearchHit, DocumentSearchQuery, DocumentSearchResponse } from "@parley/contract";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { failureFields } from "../../lib/log-options.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { embedderKey, workspaceEmbedder } from "./embeddings.ts";
import { candidateQuery } from "./query-words.ts";
import { documentAgents, documentChunks, documents } from "./schema.ts";
import { ensureVectorIndex, vectorComparison, vectorSupport } from "./vector-support.ts";

/** The usual constant of reciprocal rank fusion: dampens the lead of the very first ranks. */
const RRF_K = 60;
/** How deep each ranking is read before fusing. */
const CANDIDATES = 30;

interface Candidate {
  id: string;
  documentId: string;
  documentName: string;
  heading: string;
  content: string;
}

/** Any of the question's words (stemmed, stop words dropped), not all of them: a spoken question has many. */
const anyWordQuery = (q: string) =>
  sql`to_tsquery('english', replace(plainto_tsquery('english', ${q})::text, ' & ', ' | '))`;

/** The documents linked to an assistant (whose workspace the caller has checked). */
const agentDocuments = (agentId: string) =>
  sql`(select ${documentAgents.documentId} from ${documentAgents} where ${documentAgents.agentId} = ${agentId})`;

/**
 * Which of the tenant's ready documents a search reads: all of them, those linked to an assistant
 * now (`agentId`, whose workspace the caller has checked), or a fixed list (`documentIds`: those an
 * assistant version was published with; none means no chunks).
 */
export interface DocumentScope {
  agentId?: string | undefined;
  documentIds?: readonly string[] | undefined;
}

function scopedDocuments(scope: DocumentScope) {
  if (scope.documentIds) return inArray(documents.id, [...scope.documentIds]);
  return scope.agentId ? inArray(documents.id, agentDocuments(scope.agentId)) : undefined;
}

/**
 * Chunks of the tenant's ready documents, or of those the scope names. The documents are
 * looked up once, as an array (an InitPlan), not joined: the chunk scan stays one scan of
 * document_chunks with plain filters, so an index scan in ranking order (HNSW) can feed the LIMIT
 * directly. Joined, the planner hash-joined the index's output and sorted it again, which walked
 * the whole index; or it looped over every document of the table with a bitmap scan each.
 */
function chunkConditions(tenant: TenantScope, scope: DocumentScope) {
  const readyDocuments = sql`array(select ${documents.id} from ${documents} where ${and(
    eq(documents.workspaceId, tenant.workspaceId),
    eq(documents.status, "ready"),
    scopedDocuments(scope),
  )})`;
  return scoped(documentChunks, tenant).where(sql`${documentChunks.documentId} = any(${readyDocuments})`);
}

/**
 * Full-text ranking: always available. The chunks that `candidates` (candidateQuery) finds through
 * the GIN index are ranked by all of the question's words, common ones included. The best
 * CANDIDATES are picked from document_chunks alone (see chunkConditions), then their documents'
 * names joined: the join reads 30 rows, not every match.
 */
export function keywordRankingQuery(
  db: Executor,
  tenant: TenantScope,
  q: string,
  candidates: string,
  scope: DocumentScope = {},
) {
  // ts_rank counts how many of the words match (normalised by length, 1); cover density would favour repeats.
  const rank = sql<number>`ts_rank(${documentChunks.searchVector}, ${anyWordQuery(q)}, 1)`;
  const ranked = db
    .select({
      id: documentChunks.id,
      documentId: documentChunks.documentId,
      heading: documentChunks.heading,
      content: documentChunks.content,
      position: documentChunks.position,
      score: rank.as("score"),
    })
    .from(documentChunks)
    .where(and(chunkConditions(tenant, scope), sql`${documentChunks.searchVector} @@ ${candidates}::tsquery`))
    // By the selected column's name: written out again, the rank would be a second expression (its
    // question a second parameter) and computed twice for every candidate. Equal ranks go by place.
    .orderBy(sql`"score" desc`, documentChunks.position)
    .limit(CANDIDATES)
    .as("ranked");
  return db
    .select({
      id: ranked.id,
      documentId: ranked.documentId,
      documentName: documents.name,
      heading: ranked.heading,
      content: ranked.content,
    })
    .from(ranked)
    .innerJoin(documents, eq(documents.id, ranked.documentId))
    .orderBy(desc(ranked.score), ranked.position);
}

async function keywordRanking(db: Executor, tenant: TenantScope, q: string, scope: DocumentScope) {
  const candidates = await candidateQuery(db, tenant, q);
  return candidates ? keywordRankingQuery(db, tenant, q, candidates, scope) : [];
}

/**
 * Nearest chunks by cosine distance, among those embedded with the same model. Ordered by the
 * expression of the HNSW index for the vector's size (vector-support.ts), so the planner can walk
 * the index instead of comparing the question with every embedding of the workspace. One level,
 * unlike the keyword ranking: the index gives the order and the LIMIT stops the scan, so the
 * document's name (a lookup per row) is read for the 30 rows returned only. The distance is not
 * selected: each selected distance read the chunk's stored embedding again (6 kB out of line) and
 * compared it a second time, and sent the 1,536 numbers twice — a quarter of the ranking's CPU.
 */
export function vectorRankingQuery(
  db: Executor,
  tenant: TenantScope,
  key: string,
  vector: number[],
  scope: DocumentScope = {},
) {
  const { distance, sameSize } = vectorComparison(vector);
  return db
    .select({
      id: documentChunks.id,
      documentId: documentChunks.documentId,
      documentName: sql<string>`(select ${documents.name} from ${documents} where ${documents.id} = ${documentChunks.documentId})`,
      heading: documentChunks.heading,
      content: documentChunks.content,
    })
    .from(documentChunks)
    .where(and(chunkConditions(tenant, scope), eq(documentChunks.embeddingModel, key), sameSize))
    .orderBy(distance)
    .limit(CANDIDATES);
}

/**
 * The vector ranking, through the index where there is one. The index holds every workspace's
 * embeddings of that size; the tenant, model, status and assistant filters drop rows after it, so
 * the scan is told to go on (pgvector's iterative scan, in distance order) until it has found
 * CANDIDATES rows that pass them. The scan gives up after hnsw.max_scan_tuples rows: a workspace
 * with few chunks in a large table can come back short, and then its chunks are compared exactly.
 */
async function vectorRanking(
  ctx: AppContext,
  tenant: TenantScope,
  key: string,
  vector: number[],
  log: SearchLog,
  scope: DocumentScope,
) {
  if (!(await ensureVectorIndex(ctx.db, vector.length, log))) {
    return vectorRankingQuery(ctx.db, tenant, key, vector, scope);
  }
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local hnsw.iterative_scan = strict_order`);
    const found = await vectorRankingQuery(tx, tenant, key, vector, scope);
    if (found.length >= CANDIDATES) return found;
    await tx.execute(sql`set local enable_indexscan = off`);
    return vectorRankingQuery(tx, tenant, key, vector, scope);
  });
}

/** Reciprocal rank fusion: each ranking adds 1/(k + rank) to a chunk's score. */
export function fuseRankings(rankings: Candidate[][], limit: number): (Candidate & { score: number })[] {
  const scored = new Map<string, Candidate & { score: number }>();
  for (const ranking of rankings) {
    ranking.forEach((candidate, index) => {
      const entry = scored.get(candidate.id) ?? { ...candidate, score: 0 };
      entry.score += 1 / (RRF_K + index + 1);
      scored.set(candidate.id, entry);
    });
  }
  return [...scored.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

export interface SearchLog {
  warn(obj: object, msg: string): void;
}

/**
 * The chunks that best answer `q`, from the workspace's ready documents (or those linked to one
 * assistant, or those of `pinned`, an assistant version's recorded list, which takes precedence):
 * full-text search, fused with embedding search when the workspace has an embeddings provider and
 * the database has pgvector. A failing embeddings provider degrades to keywords.
 */
export async function searchDocuments(
  ctx: AppContext,
  tenant: TenantScope,
  query: Pick<DocumentSearchQuery, "q" | "agent_id" | "limit">,
  log: SearchLog,
  pinned?: { documentIds: readonly string[] },
): Promise<DocumentSearchResponse> {
  const scope: DocumentScope = pinned ? { documentIds: pinned.documentIds } : { agentId: query.agent_id };
  const embedder = (await vectorSupport(ctx.db, log)) ? await workspaceEmbedder(ctx, tenant).catch(() => null) : null;
  const degrade = (error: unknown) => {
    log.warn(
      { workspaceId: tenant.workspaceId, provider: embedder?.provider, ...failureFields(error) },
      "query embedding failed; searching by keywords only",
    );
    return undefined;
  };
  // The provider embeds the question while the database ranks its words.
  const embedding = embedder?.embed([query.q]).then(([vector]) => vector, degrade);
  const rankings: Candidate[][] = [await keywordRanking(ctx.db, tenant, query.q, scope)];
  let mode: DocumentSearchResponse["mode"] = "keyword";
  const vector = await embedding;
  if (embedder && vector) {
    const nearest = await vectorRanking(ctx, tenant, embedderKey(embedder), vector, log, scope).catch(degrade);
    if (nearest) {
      rankings.push(nearest);
      mode = "hybrid";
    }
  }
  const results: DocumentSearchHit[] = fuseRankings(rankings, query.limit).map((c) => ({
    chunk_id: c.id,
    document_id: c.documentId,
    document_name: c.documentName,
    heading: c.heading,
    text: c.content,
    score: Number(c.score.toFixed(6)),
  }));
  return { results, mode };
}
