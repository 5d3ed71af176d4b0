import type {
  CrawlIntensity,
  DocumentFailure,
  DocumentKind,
  DocumentStatus,
  EmbeddingsProviderId,
} from "@parley/contract";
import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, customType, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamps, updatedAt, uuidPrimaryKey } from "../../lib/table-columns.ts";
import { agents } from "../assistants/schema.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";
import { workspaces } from "../workspaces/schema.ts";

/** Raw bytes; node-postgres hands back a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A file's bytes travel to and from the database as hex text, decoded by the database: PGlite's own
 * bytea conversion builds one JavaScript string per byte, which held the server's only thread for
 * ≈ 10 s and took ≈ 400 MB for a 6 MB upload; Buffer's hex conversion is native.
 */
export const byteaFromHex = (data: Buffer): SQL<Buffer> => sql`decode(${data.toString("hex")}, 'hex')`;
export const hexOfBytea = (column: AnyPgColumn): SQL<string> => sql<string>`encode(${column}, 'hex')`;

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** One uploaded file or one crawled site, with its processing state. */
export const documents = pgTable(
  "documents",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    kind: text("kind").$type<DocumentKind>(),
    status: text("status").$type<DocumentStatus>().notNull().default("pending"),
    errorMessage: text("error_message"),
    errorCode: text("error_code").$type<DocumentFailure>(),
    sizeBytes: integer("size_bytes").notNull().default(0),
    chunkCount: integer("chunk_count").notNull().default(0),
    url: text("url"),
    intensity: integer("intensity").$type<CrawlIntensity>(),
    pagesDone: integer("pages_done").notNull().default(0),
    pagesFound: integer("pages_found").notNull().default(0),
    mimeType: text("mime_type"),
    ...timestamps(),
  },
  (t) => [index("documents_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** The original upload, kept apart so listing documents never reads file bytes. */
export const documentFiles = pgTable("document_files", {
  documentId: uuid("document_id")
    .primaryKey()
    .references(() => documents.id, { onDelete: "cascade" }),
  workspaceId: workspaceIdColumn(),
  data: bytea("data").notNull(),
});

/**
 * The searchable pieces of a document. `search_vector` is PostgreSQL full-text over heading and
 * text; the `embedding` vector column is added at run time only where pgvector exists
 * (vector-support.ts), and `embedding_model` says which "provider/model" made it.
 */
export const documentChunks = pgTable(
  "document_chunks",
  {
    id: uuidPrimaryKey(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    workspaceId: workspaceIdColumn(),
    position: integer("position").notNull(),
    heading: text("heading").notNull().default(""),
    content: text("content").notNull(),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`to_tsvector('english', coalesce("heading", '') || ' ' || "content")`,
    ),
    embeddingModel: text("embedding_model"),
  },
  (t) => [
    index("document_chunks_document_idx").on(t.documentId, t.position),
    index("document_chunks_workspace_idx").on(t.workspaceId),
    // A short pending list (256 kB, not 4 MB): the embedded database never vacuums, so every search
    // read the whole list of entries not yet merged, and its size priced the index out of the
    // planner's choice. Merged in batches of this size, inserts stay cheaper than without a list.
    index("document_chunks_search_idx").using("gin", t.searchVector).with({ gin_pending_list_limit: 256 }),
  ],
);

/**
 * How many of a workspace's chunks hold each word (stemmed, as in `search_vector`), kept by
 * triggers on document_chunks (migration 0034): a search tells a word that picks a few chunks from
 * one in nearly all of them without counting (search.ts).
 */
export const knowledgeLexemes = pgTable(
  "knowledge_lexemes",
  {
    workspaceId: workspaceIdColumn(),
    lexeme: text("lexeme").notNull(),
    chunks: integer("chunks").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.lexeme] })],
);

export const documentAgents = pgTable(
  "document_agents",
  {
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.agentId] }), index("document_agents_agent_idx").on(t.agentId)],
);

/** A workspace's embeddings choice; no row = keyword search only. */
export const knowledgeSettings = pgTable("knowledge_settings", {
  workspaceId: uuid("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  embeddingsProvider: text("embeddings_provider").$type<EmbeddingsProviderId>(),
  embeddingsModel: text("embeddings_model"),
  updatedAt: updatedAt(),
});

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentChunkRow = typeof documentChunks.$inferSelect;
