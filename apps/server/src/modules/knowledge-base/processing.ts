import { DOCUMENT_LIMITS, type DocumentFailure } from "@parley/contract";
import { count, eq, ne } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import type { JobRow } from "../../jobs/schema.ts";
import { failureFields } from "../../lib/log-options.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { boundedChunks, type Chunk, embeddingText } from "./chunking.ts";
import { crawlSite } from "./crawl.ts";
import { chunksToEmbed, embedderKey, storeEmbeddings, workspaceEmbedder } from "./embeddings.ts";
import { ExtractionError } from "./extract/index.ts";
import { extractInWorker } from "./extract-in-worker.ts";
import { documentChunks, documents } from "./schema.ts";
import { documentFile, findDocument, updateDocument } from "./service.ts";
import { ensureVectorIndex, vectorSupport } from "./vector-support.ts";

export const PROCESS_QUEUE = "documents.process";
export const EMBED_QUEUE = "documents.embed";

export interface ProcessPayload {
  workspaceId: string;
  documentId: string;
}

function payloadOf(raw: Record<string, unknown>): ProcessPayload {
  const { workspaceId, documentId } = raw;
  if (typeof workspaceId !== "string") throw new Error("job payload has no workspaceId");
  return { workspaceId, documentId: typeof documentId === "string" ? documentId : "" };
}

/**
 * Rows per insert: a statement of PGlite holds the main thread while it runs (each row's tsvector,
 * its index entries and the statement's word counts, knowledge_lexemes). 50 keeps one near 30 ms.
 */
const CHUNK_BATCH = 50;

/** Refuses chunks that would take the workspace past DOCUMENT_LIMITS.chunksPerWorkspace (this document's old ones aside). */
async function checkWorkspaceRoom(db: Executor, tenant: TenantScope, documentId: string, chunks: number) {
  const [row] = await db
    .select({ n: count() })
    .from(documentChunks)
    .where(scoped(documentChunks, tenant).where(ne(documentChunks.documentId, documentId)));
  const held = row?.n ?? 0;
  const limit = DOCUMENT_LIMITS.chunksPerWorkspace;
  if (held + chunks > limit) {
    throw new ExtractionError(
      `The workspace's knowledge base would pass its ${limit.toLocaleString("en-US")} chunks (it holds ${held.toLocaleString("en-US")}, this document makes ${chunks.toLocaleString("en-US")}). Delete documents you no longer need, then process this one again.`,
      "workspace_full",
    );
  }
}

/** Writes a document's chunks in one transaction, replacing any it had: a reader sees the old set or the new one. */
async function replaceChunks(
  db: Executor,
  tenant: TenantScope,
  documentId: string,
  chunks: Chunk[],
  sizeBytes: number,
) {
  await db.transaction(async (tx) => {
    await tx
      .delete(documentChunks)
      .where(scoped(documentChunks, tenant).where(eq(documentChunks.documentId, documentId)));
    for (let start = 0; start < chunks.length; start += CHUNK_BATCH) {
      await tx
        .insert(documentChunks)
        .values(
          chunks
            .slice(start, start + CHUNK_BATCH)
            .map((chunk, i) => scoped(documentChunks, tenant).values({ documentId, position: start + i, ...chunk })),
        );
    }
    await tx
      .update(documents)
      .set({
        status: "ready",
        errorMessage: null,
        errorCode: null,
        chunkCount: chunks.length,
        sizeBytes,
        updatedAt: new Date(),
      })
      .where(scoped(documents, tenant).where(eq(documents.id, documentId)));
  });
}

async function failDocument(
  db: Executor,
  tenant: TenantScope,
  documentId: string,
  message: string,
  code: DocumentFailure,
) {
  await db.transaction(async (tx) => {
    await tx
      .delete(documentChunks)
      .where(scoped(documentChunks, tenant).where(eq(documentChunks.documentId, documentId)));
    await tx
      .update(documents)
      .set({ status: "failed", errorMessage: message, errorCode: code, chunkCount: 0, updatedAt: new Date() })
      .where(scoped(documents, tenant).where(eq(documents.id, documentId)));
  });
}

/**
 * Embeds the chunks not yet embedded with the workspace's current model. Returns a sentence for the
 * document when embedding failed (its chunks stay searchable by keywords), else null.
 */
export async function embedPending(
  ctx: AppContext,
  log: FastifyBaseLogger,
  tenant: TenantScope,
  documentId?: string,
): Promise<string | null> {
  if (!(await vectorSupport(ctx.db, log))) return null;
  let provider: string | undefined;
  try {
    const embedder = await workspaceEmbedder(ctx, tenant);
    if (!embedder) return null;
    provider = embedder.provider;
    const key = embedderKey(embedder);
    const pending = await chunksToEmbed(ctx.db, tenant, key, documentId);
    for (let start = 0; start < pending.length; start += 256) {
      const batch = pending.slice(start, start + 256);
      const vectors = await embedder.embed(batch.map(embeddingText));
      // The index for this size exists before its vectors are stored, so each is added to it as it lands.
      await ensureVectorIndex(ctx.db, vectors[0]?.length ?? 0, log);
      await storeEmbeddings(
        ctx.db,
        key,
        batch.map((chunk, i) => ({ id: chunk.id, vector: vectors[i] ?? [] })),
      );
    }
    return null;
  } catch (error) {
    // The chunks stay searchable by keywords, and a later change of model embeds them again.
    log.warn(
      { workspaceId: tenant.workspaceId, documentId, provider, ...failureFields(error) },
      "embedding document chunks failed",
    );
    const reason = error instanceof Error ? error.message : String(error);
    return `Embeddings failed, so this document is searched by keywords only: ${reason}`;
  }
}

/** Reads the document (the stored file on a worker thread, or the site) into its chunks. */
async function readDocument(ctx: AppContext, tenant: TenantScope, documentId: string) {
  const row = await findDocument(ctx.db, tenant, documentId);
  if (!row) return null;
  if (row.url) {
    const progress = (done: number, found: number) =>
      updateDocument(ctx.db, tenant, documentId, { pagesDone: done, pagesFound: found });
    const site = await crawlSite(ctx.network.fetch, row.url, row.intensity ?? 1, progress);
    return { kind: "web" as const, chunks: boundedChunks(site.sections), sizeBytes: site.bytes };
  }
  const data = await documentFile(ctx.db, tenant, documentId);
  if (!data) throw new ExtractionError("The uploaded file is missing.");
  const read = await extractInWorker(data);
  return { kind: read.kind, chunks: read.chunks, sizeBytes: data.length };
}

const CRASHED =
  "Processing stopped unexpectedly on every attempt, so this document was given up. Try again, or upload the file again.";

/** Fails the document and tells whoever waits on it (the app's list, the tests). */
async function giveUp(
  ctx: AppContext,
  tenant: TenantScope,
  documentId: string,
  message: string,
  code: DocumentFailure,
) {
  await failDocument(ctx.db, tenant, documentId, message, code);
  ctx.events.emit("document.ready", { workspaceId: tenant.workspaceId, documentId });
}

/**
 * The job of one document: pending → processing → ready, or failed with a sentence. A document
 * that cannot be read, or breaks a limit, fails at once; anything else (the database, a reader that
 * stopped) is retried by the runner until its attempts run out. A restart picks the job up again
 * from the start — chunks are replaced, never added.
 */
export async function processDocumentJob(
  ctx: AppContext,
  log: FastifyBaseLogger,
  raw: Record<string, unknown>,
  job: JobRow,
): Promise<void> {
  const { workspaceId, documentId } = payloadOf(raw);
  const tenant = { workspaceId };
  await updateDocument(ctx.db, tenant, documentId, { status: "processing", errorMessage: null, errorCode: null });
  try {
    const read = await readDocument(ctx, tenant, documentId);
    if (!read) return;
    await checkWorkspaceRoom(ctx.db, tenant, documentId, read.chunks.length);
    await updateDocument(ctx.db, tenant, documentId, { kind: read.kind });
    await replaceChunks(ctx.db, tenant, documentId, read.chunks, read.sizeBytes);
    const embeddingProblem = await embedPending(ctx, log, tenant, documentId);
    if (embeddingProblem) await updateDocument(ctx.db, tenant, documentId, { errorMessage: embeddingProblem });
    ctx.events.emit("document.ready", { workspaceId, documentId });
  } catch (error) {
    if (error instanceof ExtractionError) {
      if (error.code === "site_unreachable") {
        log.warn({ documentId, workspaceId, reason: error.message }, "crawl failed");
      } else if (error.code !== "unreadable") {
        const sizeBytes = (await findDocument(ctx.db, tenant, documentId))?.sizeBytes;
        log.warn({ documentId, workspaceId, sizeBytes, limit: error.code, reason: error.message }, "document refused");
      }
      await giveUp(ctx, tenant, documentId, error.message, error.code);
      return;
    }
    if (job.attempts >= job.maxAttempts) await giveUp(ctx, tenant, documentId, CRASHED, "crashed");
    throw error;
  }
}

/**
 * A document whose job the runner gave up on: each attempt ended with the process stopping (killed
 * for memory, say), so the handler never got to say so. Without this the job would start again at
 * every restart.
 */
export async function documentJobGivenUp(ctx: AppContext, log: FastifyBaseLogger, raw: Record<string, unknown>) {
  const { workspaceId, documentId } = payloadOf(raw);
  log.error({ documentId, workspaceId }, "document given up: processing stopped the server on every attempt");
  await giveUp(ctx, { workspaceId }, documentId, CRASHED, "crashed");
}

/** Re-embeds a workspace's chunks after its embeddings provider or model changed. */
export async function embedWorkspaceJob(ctx: AppContext, log: FastifyBaseLogger, raw: Record<string, unknown>) {
  const { workspaceId } = payloadOf(raw);
  await embedPending(ctx, log, { workspaceId });
}
