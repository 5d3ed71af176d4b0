import { type KnowledgeSettings, providerDescriptor } from "@parley/contract";
import { createEmbedder, type Embedder } from "@parley/engine";
import { eq, isNull, ne, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { documentChunks, knowledgeSettings } from "./schema.ts";
import { vectorLiteral } from "./vector-support.ts";

export async function getKnowledgeSettings(db: Executor, tenant: TenantScope): Promise<KnowledgeSettings> {
  const [row] = await db.select().from(knowledgeSettings).where(scoped(knowledgeSettings, tenant).where());
  return { embeddings_provider: row?.embeddingsProvider ?? null, embeddings_model: row?.embeddingsModel ?? null };
}

/**
 * Saves the choice (the provider's default model when none is given); true when it changed. Any
 * model name is taken: self-hosted servers name their own, and a wrong one fails at the first embedding.
 */
export async function saveKnowledgeSettings(
  db: Executor,
  tenant: TenantScope,
  body: KnowledgeSettings,
): Promise<{ settings: KnowledgeSettings; changed: boolean }> {
  const before = await getKnowledgeSettings(db, tenant);
  const provider = body.embeddings_provider;
  const stage = provider ? providerDescriptor(provider)?.embeddings : undefined;
  const model = provider ? (body.embeddings_model ?? stage?.defaultModel ?? null) : null;
  const settings: KnowledgeSettings = { embeddings_provider: provider, embeddings_model: model };
  await db
    .insert(knowledgeSettings)
    .values(
      scoped(knowledgeSettings, tenant).values({
        embeddingsProvider: provider,
        embeddingsModel: model,
        updatedAt: new Date(),
      }),
    )
    .onConflictDoUpdate({
      target: knowledgeSettings.workspaceId,
      set: { embeddingsProvider: provider, embeddingsModel: model, updatedAt: new Date() },
    });
  const changed =
    before.embeddings_provider !== settings.embeddings_provider ||
    before.embeddings_model !== settings.embeddings_model;
  return { settings, changed };
}

/** The workspace's embedder, or null when it has none (keyword search only). */
export async function workspaceEmbedder(ctx: AppContext, tenant: TenantScope): Promise<Embedder | null> {
  const settings = await getKnowledgeSettings(ctx.db, tenant);
  if (!settings.embeddings_provider || !settings.embeddings_model) return null;
  const credentials = await resolveCredentials(ctx, tenant.workspaceId, settings.embeddings_provider);
  return createEmbedder(settings.embeddings_provider, {
    credentials,
    model: settings.embeddings_model,
    net: ctx.network,
  });
}

/** Which embeddings a chunk was made with: vectors of different models are never compared. */
export const embedderKey = (embedder: Embedder) => `${embedder.provider}/${embedder.model}`;

/**
 * Rows per statement. Each stored vector is also inserted into the HNSW index (vector-support.ts),
 * several milliseconds a row on the embedded database, whose statements hold the server's thread:
 * short statements let calls and requests take their turns between them.
 */
const STORE_BATCH = 16;

/** Stores vectors for chunks, a few rows per statement. */
export async function storeEmbeddings(db: Executor, key: string, rows: { id: string; vector: number[] }[]) {
  for (let start = 0; start < rows.length; start += STORE_BATCH) {
    const batch = rows.slice(start, start + STORE_BATCH);
    const values = sql.join(
      batch.map((r) => sql`(${r.id}::uuid, ${vectorLiteral(r.vector)}::vector)`),
      sql`, `,
    );
    await db.execute(sql`
      update document_chunks as c set embedding = v.embedding, embedding_model = ${key}
      from (values ${values}) as v(id, embedding)
      where c.id = v.id`);
  }
}

/** Chunks of a document (or of every document of the workspace) not yet embedded with `key`. */
export async function chunksToEmbed(db: Executor, tenant: TenantScope, key: string, documentId?: string) {
  return db
    .select({ id: documentChunks.id, heading: documentChunks.heading, content: documentChunks.content })
    .from(documentChunks)
    .where(
      scoped(documentChunks, tenant).where(
        documentId ? eq(documentChunks.documentId, documentId) : undefined,
        or(isNull(documentChunks.embeddingModel), ne(documentChunks.embeddingModel, key)),
      ),
    )
    .orderBy(documentChunks.documentId, documentChunks.position);
}
