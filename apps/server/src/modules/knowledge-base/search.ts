import type { DocumentSearchHit, DocumentSearchQuery, DocumentSearchResponse } from "@parley/contract";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { failureFields } from "../../lib/log-options.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { embedderKey, workspaceEmbedder } from "./embeddings.ts";
import { documentAgents, documentChunks, documents } from "./schema.ts";
import { vectorLiteral, vectorSupport } from "./vector-support.ts";

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

/** Chunks of the tenant's ready documents, or of those linked to one assistant. */
function baseConditions(tenant: TenantScope, agentId: string | undefined) {
  return scoped(documentChunks, tenant).where(
    eq(documents.status, "ready"),
    agentId ? inArray(documentChunks.documentId, agentDocuments(agentId)) : undefined,
  );
}

const candidateColumns = {
  id: documentChunks.id,
  documentId: documentChunks.documentId,
  documentName: documents.name,
  heading: documentChunks.heading,
  content: documentChunks.content,
};

/** Full-text ranking: always available. */
export async function keywordRanking(db: Executor, tenant: TenantScope, q: string, agentId?: string) {
  const query = anyWordQuery(q);
  // ts_rank counts how many of the words match (normalised by length, 1); cover density would favour repeats.
  const rank = sql<number>`ts_rank(${documentChunks.searchVector}, ${query}, 1)`;
  return db
    .select(candidateColumns)
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(baseConditions(tenant, agentId), sql`${documentChunks.searchVector} @@ ${query}`))
    .orderBy(desc(rank), documentChunks.position)
    .limit(CANDIDATES);
}

/** Nearest chunks by cosine distance, among those embedded with the same model. */
async function vectorRanking(db: Executor, tenant: TenantScope, key: string, vector: number[], agentId?: string) {
  const distance = sql`"document_chunks"."embedding" <=> ${vectorLiteral(vector)}::vector`;
  return db
    .select(candidateColumns)
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(baseConditions(tenant, agentId), eq(documentChunks.embeddingModel, key)))
    .orderBy(distance)
    .limit(CANDIDATES);
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
 * assistant): full-text search, fused with embedding search when the workspace has an embeddings
 * provider and the database has pgvector. A failing embeddings provider degrades to keywords.
 */
export async function searchDocuments(
  ctx: AppContext,
  tenant: TenantScope,
  query: Pick<DocumentSearchQuery, "q" | "agent_id" | "limit">,
  log: SearchLog,
): Promise<DocumentSearchResponse> {
  const keyword = await keywordRanking(ctx.db, tenant, query.q, query.agent_id);
  const rankings: Candidate[][] = [keyword];
  let mode: DocumentSearchResponse["mode"] = "keyword";
  const embedder = (await vectorSupport(ctx.db, log)) ? await workspaceEmbedder(ctx, tenant).catch(() => null) : null;
  if (embedder) {
    try {
      const [vector] = await embedder.embed([query.q]);
      if (vector) {
        rankings.push(await vectorRanking(ctx.db, tenant, embedderKey(embedder), vector, query.agent_id));
        mode = "hybrid";
      }
    } catch (error) {
      log.warn(
        { workspaceId: tenant.workspaceId, provider: embedder.provider, ...failureFields(error) },
        "query embedding failed; searching by keywords only",
      );
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
