import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { documents, knowledgeLexemes } from "./schema.ts";

/**
 * A word in more than this share of the workspace's chunks, and in more than COMMON_WORD_MIN_CHUNKS
 * of them, does not make a chunk a candidate on its own: it still adds to the rank of the chunks the
 * question's other words find (as a "common terms" query does). "Customer" in a shop's knowledge
 * base is in nearly every chunk, and finding chunks by it alone meant reading and scoring every
 * chunk (10,000 rows per search). On the bench's 10,000-chunk corpus 0.3 left the ranked results of
 * 200 of 200 questions as they were; 0.2 scores a quarter fewer chunks (keyword ranking 7.3 → 5.7 ms
 * of CPU) and changed the top 5 of one question, "How do I arrive delivery warehouse orders?", where
 * "arrive" (in 23 % of the chunks) no longer finds chunks alone: its new top 5 hold all four words,
 * the old one had three chunks without "warehouse". Elasticsearch's cutoff is far lower (0.1 %).
 */
export const COMMON_WORD_SHARE = 0.2;
/**
 * Below this many chunks a word is never common: ranking them all costs a few milliseconds, and in
 * a small knowledge base every word is in a large share of the chunks.
 */
export const COMMON_WORD_MIN_CHUNKS = 1000;

interface QueryWord {
  /** The word as a tsquery term (quoted lexeme). */
  term: string;
  /** How many of the workspace's chunks hold it. */
  chunks: number;
  /** How many chunks the workspace has. */
  total: number;
}

/**
 * The question's words (stemmed, stop words dropped: plainto_tsquery's terms) with how many of the
 * workspace's chunks hold each, read from knowledge_lexemes (kept by triggers on document_chunks).
 */
async function queryWords(db: Executor, tenant: TenantScope, q: string): Promise<QueryWord[]> {
  const lexeme = sql`(tsvector_to_array(t.term::tsvector))[1]`;
  const total = sql`(select coalesce(sum(${documents.chunkCount}), 0) from ${documents} where ${scoped(documents, tenant).where()})`;
  const result = (await db.execute(sql`
    select t.term, coalesce(${knowledgeLexemes.chunks}, 0)::int as chunks, ${total}::int as total
    from unnest(string_to_array(plainto_tsquery('english', ${q})::text, ' & ')) as t(term)
    left join ${knowledgeLexemes} on ${scoped(knowledgeLexemes, tenant).where(eq(knowledgeLexemes.lexeme, lexeme))}`)) as unknown as {
    rows: QueryWord[];
  };
  return result.rows;
}

/**
 * The tsquery that picks the chunks to rank for `q`: any of its words that are in the workspace but
 * not common; when every word found is common, all of those together. Null when no word of the
 * question is in the workspace's chunks (nothing would match).
 */
export async function candidateQuery(db: Executor, tenant: TenantScope, q: string): Promise<string | null> {
  const found = (await queryWords(db, tenant, q)).filter((w) => w.chunks > 0);
  if (found.length === 0) return null;
  const distinctive = found.filter(
    (w) => w.chunks <= COMMON_WORD_MIN_CHUNKS || w.chunks <= COMMON_WORD_SHARE * w.total,
  );
  return distinctive.length > 0 ? distinctive.map((w) => w.term).join(" | ") : found.map((w) => w.term).join(" & ");
}
