import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import type { JobRow } from "../../jobs/schema.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type Chunk, chunkSections, embeddingText } from "./chunking.ts";
import { crawlSite } from "./crawl.ts";
import { chunksToEmbed, embedderKey, storeEmbeddings, workspaceEmbedder } from "./embeddings.ts";
import { ExtractionError, extractDocument } from "./extract/index.ts";
import { documentChunks, documents } from "./schema.ts";
import { documentFile, findDocument, updateDocument } from "./service.ts";
import { vectorSupport } from "./vector-support.ts";

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
    for (let start = 0; start < chunks.length; start += 500) {
      await tx
        .insert(documentChunks)
        .values(
          chunks
            .slice(start, start + 500)
            .map((chunk, i) => scoped(documentChunks, tenant).values({ documentId, position: start + i, ...chunk })),
        );
    }
    await tx
      .update(documents)
      .set({ status: "ready", errorMessage: null, chunkCount: chunks.length, sizeBytes, updatedAt: new Date() })
      .where(scoped(documents, tenant).where(eq(documents.id, documentId)));
  });
}

async function failDocument(db: Executor, tenant: TenantScope, documentId: string, message: string) {
  await db.transaction(async (tx) => {
    await tx
      .delete(documentChunks)
      .where(scoped(documentChunks, tenant).where(eq(documentChunks.documentId, documentId)));
    await tx
      .update(documents)
      .set({ status: "failed", errorMessage: message, chunkCount: 0, updatedAt: new Date() })
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
  try {
    const embedder = await workspaceEmbedder(ctx, tenant);
    if (!embedder) return null;
    const key = embedderKey(embedder);
    const pending = await chunksToEmbed(ctx.db, tenant, key, documentId);
    for (let start = 0; start < pending.length; start += 256) {
      const batch = pending.slice(start, start + 256);
      const vectors = await embedder.embed(batch.map(embeddingText));
      await storeEmbeddings(
        ctx.db,
        key,
        batch.map((chunk, i) => ({ id: chunk.id, vector: vectors[i] ?? [] })),
      );
    }
    return null;
  } catch (error) {
    log.warn({ err: error, documentId }, "embedding document chunks failed");
    const reason = error instanceof Error ? error.message : String(error);
    return `Embeddings failed, so this document is searched by keywords only: ${reason}`;
  }
}

/** Reads the document (the stored file, or the site), then chunks, indexes and embeds it. */
async function readDocument(ctx: AppContext, tenant: TenantScope, documentId: string) {
  const row = await findDocument(ctx.db, tenant, documentId);
  if (!row) return null;
  if (row.url) {
    const progress = (done: number, found: number) =>
      updateDocument(ctx.db, tenant, documentId, { pagesDone: done, pagesFound: found });
    const site = await crawlSite(ctx.network.fetch, row.url, row.intensity ?? 1, progress);
    return { kind: "web" as const, sections: site.sections, sizeBytes: site.bytes };
  }
  const data = await documentFile(ctx.db, tenant, documentId);
  if (!data) throw new ExtractionError("The uploaded file is missing.");
  const extracted = await extractDocument(data);
  return { kind: extracted.kind, sections: extracted.sections, sizeBytes: data.length };
}

/**
 * The job of one document: pending → processing → ready, or failed with a sentence. A document
 * that cannot be read fails at once; anything else (the database, a crash) is retried by the
 * runner, and a restart picks the job up again from the start — chunks are replaced, never added.
 */
export async function processDocumentJob(
  ctx: AppContext,
  log: FastifyBaseLogger,
  raw: Record<string, unknown>,
  job: JobRow,
): Promise<void> {
  const { workspaceId, documentId } = payloadOf(raw);
  const tenant = { workspaceId };
  await updateDocument(ctx.db, tenant, documentId, { status: "processing", errorMessage: null });
  try {
    const read = await readDocument(ctx, tenant, documentId);
    if (!read) return;
    const chunks = chunkSections(read.sections);
    if (chunks.length === 0) throw new ExtractionError("The document has no text to index.");
    await updateDocument(ctx.db, tenant, documentId, { kind: read.kind });
    await replaceChunks(ctx.db, tenant, documentId, chunks, read.sizeBytes);
    const embeddingProblem = await embedPending(ctx, log, tenant, documentId);
    if (embeddingProblem) await updateDocument(ctx.db, tenant, documentId, { errorMessage: embeddingProblem });
    ctx.events.emit("document.ready", { workspaceId, documentId });
  } catch (error) {
    if (error instanceof ExtractionError) {
      await failDocument(ctx.db, tenant, documentId, error.message);
      ctx.events.emit("document.ready", { workspaceId, documentId });
      return;
    }
    if (job.attempts >= job.maxAttempts) {
      await failDocument(ctx.db, tenant, documentId, "Processing failed. Try again, or upload the file again.");
      ctx.events.emit("document.ready", { workspaceId, documentId });
    }
    throw error;
  }
}

/** Re-embeds a workspace's chunks after its embeddings provider or model changed. */
export async function embedWorkspaceJob(ctx: AppContext, log: FastifyBaseLogger, raw: Record<string, unknown>) {
  const { workspaceId } = payloadOf(raw);
  await embedPending(ctx, log, { workspaceId });
}
