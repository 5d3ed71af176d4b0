import { type SQL, sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../../db/client.ts";

interface Log {
  warn(obj: object, msg: string): void;
}

interface StartLog extends Log {
  info(obj: object, msg: string): void;
}

const checked = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether this database can store and compare embeddings. pgvector comes with the embedded
 * database; a PostgreSQL server may lack the `vector` extension (or the right to create it), and
 * then documents are searched by keywords only. The `embedding` column is added here, not in a
 * migration, because a migration cannot depend on an extension the server may not have.
 */
export function vectorSupport(db: Database, log: Log): Promise<boolean> {
  let result = checked.get(db);
  if (!result) {
    result = (async () => {
      try {
        await db.execute(sql`create extension if not exists vector`);
        await db.execute(sql`alter table document_chunks add column if not exists embedding vector`);
        return true;
      } catch (error) {
        log.warn(
          { err: error },
          "pgvector is not available in this PostgreSQL (CREATE EXTENSION vector failed): knowledge documents are searched by keywords only",
        );
        return false;
      }
    })();
    checked.set(db, result);
  }
  return result;
}

/** pgvector's text form of a vector. */
export const vectorLiteral = (values: number[]) => `[${values.map((v) => (Number.isFinite(v) ? v : 0)).join(",")}]`;

/**
 * The type an embedding of `dimensions` is indexed as: pgvector's HNSW index takes at most 2,000
 * dimensions of `vector` and 4,000 of `halfvec` (half precision, for 3,072-dimension models); larger
 * embeddings are compared without an index. The `embedding` column itself has no dimension, since
 * workspaces choose models of different sizes; each size gets its own partial index.
 */
export function indexedVectorType(dimensions: number): { type: string; ops: string } | null {
  if (!Number.isInteger(dimensions) || dimensions < 1) return null;
  if (dimensions <= 2000) return { type: `vector(${dimensions})`, ops: "vector_cosine_ops" };
  if (dimensions <= 4000) return { type: `halfvec(${dimensions})`, ops: "halfvec_cosine_ops" };
  return null;
}

/**
 * How a search compares embeddings with `vector`: the distance to order by and the condition that
 * selects embeddings of the same size. Both are written exactly as the partial HNSW index for that
 * size (ensureVectorIndex) defines them, with the size as a literal, so the planner can use it.
 */
export function vectorComparison(vector: number[]): { distance: SQL; sameSize: SQL | undefined } {
  const indexed = indexedVectorType(vector.length);
  if (!indexed)
    return { distance: sql`"document_chunks"."embedding" <=> ${vectorLiteral(vector)}::vector`, sameSize: undefined };
  const type = sql.raw(indexed.type);
  return {
    distance: sql`("document_chunks"."embedding"::${type}) <=> ${vectorLiteral(vector)}::${type}`,
    sameSize: sql`vector_dims("document_chunks"."embedding") = ${sql.raw(String(vector.length))}`,
  };
}

/** pgvector 0.8 brought the iterative index scans a filtered search needs (and halfvec, HNSW before it). */
const INDEXING_VERSION = [0, 8];

const indexing = new WeakMap<Database, Promise<boolean>>();

/** Whether this database's pgvector can index embeddings and keep scanning an index past filtered-out rows. */
export function vectorIndexSupport(db: Database, log: Log): Promise<boolean> {
  let result = indexing.get(db);
  if (!result) {
    result = (async () => {
      if (!(await vectorSupport(db, log))) return false;
      const found = (await db.execute(
        sql`select extversion from pg_extension where extname = 'vector'`,
      )) as unknown as {
        rows: { extversion: string }[];
      };
      const version = (found.rows[0]?.extversion ?? "0").split(".").map(Number);
      const [major = 0, minor = 0] = version;
      const [wantMajor = 0, wantMinor = 0] = INDEXING_VERSION;
      const supported = major > wantMajor || (major === wantMajor && minor >= wantMinor);
      if (!supported) {
        log.warn(
          { pgvector: found.rows[0]?.extversion },
          "pgvector older than 0.8: knowledge embeddings are compared without an index (slower search on large knowledge bases)",
        );
      }
      return supported;
    })();
    indexing.set(db, result);
  }
  return result;
}

/** Name of the HNSW index over embeddings of `dimensions`. */
export const vectorIndexName = (dimensions: number) => `document_chunks_embedding_${dimensions}_idx`;

/** Creates the HNSW index over embeddings of `dimensions` (over the rows already there); false when that size has none. */
export async function createVectorIndex(db: Database, dimensions: number): Promise<boolean> {
  const indexed = indexedVectorType(dimensions);
  if (!indexed) return false;
  await db.execute(
    sql.raw(
      `create index if not exists ${vectorIndexName(dimensions)} on document_chunks using hnsw ((embedding::${indexed.type}) ${indexed.ops}) where vector_dims(embedding) = ${dimensions}`,
    ),
  );
  return true;
}

const built = new WeakMap<Database, Map<number, Promise<boolean>>>();

/**
 * The HNSW index over embeddings of `dimensions`, created the first time embeddings of that size
 * are stored or searched (then kept up by the database); true when there is one. Without it, each
 * search compared the question with every embedding of the workspace: ≈ 230 ms at 10,000 chunks of
 * 1,536 dimensions on the embedded database. A failure leaves search exact (and slower), never broken.
 */
export function ensureVectorIndex(db: Database, dimensions: number, log: Log): Promise<boolean> {
  let sizes = built.get(db);
  if (!sizes) {
    sizes = new Map();
    built.set(db, sizes);
  }
  let result = sizes.get(dimensions);
  if (!result) {
    result = (async () => {
      if (!indexedVectorType(dimensions) || !(await vectorIndexSupport(db, log))) return false;
      try {
        return await createVectorIndex(db, dimensions);
      } catch (error) {
        log.warn(
          { err: error, dimensions },
          "could not create the embeddings index: knowledge search compares every embedding (slower on large knowledge bases)",
        );
        return false;
      }
    })();
    sizes.set(dimensions, result);
  }
  return result;
}

/**
 * On the embedded database, the HNSW indexes over embeddings already stored are built at start,
 * before the server listens. PGlite runs every statement on the server's own thread: built on the
 * first search after an upgrade, the index held that thread — every running call's audio — for
 * minutes (≈ 335 s for 15,000 chunks on a loaded 2-core machine). At start no call is running yet.
 * A size first seen later is indexed while it has no rows, which is instant. An install that never
 * stored an embedding (no `embedding` column yet) pays nothing. On a PostgreSQL server the build
 * runs in the database's own process and only the request that triggers it waits.
 */
export async function indexStoredEmbeddings(database: DatabaseHandle, log: StartLog): Promise<void> {
  if (database.kind !== "pglite") return;
  const { db } = database;
  const column = (await db.execute(
    sql`select 1 from information_schema.columns where table_name = 'document_chunks' and column_name = 'embedding'`,
  )) as unknown as { rows: unknown[] };
  if (column.rows.length === 0) return;
  const sizes = (await db.execute(
    sql`select distinct vector_dims(embedding) as dims from document_chunks where embedding is not null`,
  )) as unknown as { rows: { dims: number }[] };
  for (const { dims } of sizes.rows) {
    const exists = (await db.execute(
      sql`select 1 from pg_indexes where indexname = ${vectorIndexName(Number(dims))}`,
    )) as unknown as { rows: unknown[] };
    if (exists.rows.length > 0) continue;
    const started = performance.now();
    log.info({ dimensions: dims }, "indexing the stored knowledge embeddings (once, before the server listens)");
    if (await ensureVectorIndex(db, Number(dims), log))
      log.info({ dimensions: dims, ms: Math.round(performance.now() - started) }, "knowledge embeddings indexed");
  }
}
