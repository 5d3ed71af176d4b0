import { z } from "zod";
import { EmbeddingsProviderId } from "./providers/index.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * Knowledge documents (spec §3 "Document", §7 "Documents"): uploaded files and crawled sites,
 * split into chunks an assistant searches during a call.
 */

/** pending → processing → ready, or failed with error_message. */
export const DocumentStatus = z.enum(["pending", "processing", "ready", "failed"]);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

/** What the content turned out to be, sniffed from the bytes (never the file name); `web` for crawls. */
export const DocumentKind = z.enum(["pdf", "docx", "html", "csv", "markdown", "text", "web"]);
export type DocumentKind = z.infer<typeof DocumentKind>;

export const DOCUMENT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_MAX_FILES = 10;
export const DOCUMENT_SIZE_TEXT = `Each file must be ${DOCUMENT_MAX_FILE_BYTES / (1024 * 1024)} MB or smaller.`;

/**
 * What reading one document may cost (docs/knowledge.md, "Limits"). A file past any of them fails
 * with a sentence saying which, instead of taking the server's memory or time: the outside round
 * of issue 25 took the server down with a 2-million-paragraph DOCX, a zip bomb and a 20,000-page PDF.
 */
export const DOCUMENT_LIMITS = {
  /** Bytes a Word file's parts may unpack to, all parts read together (images are never unpacked). */
  unzippedBytes: 48 * 1024 * 1024,
  /** Files inside a Word document's archive. */
  zipEntries: 2_000,
  /** Paragraphs of a Word document: its converter needs ≈ 8 KB of memory for each. */
  wordParagraphs: 20_000,
  /** Pages of a PDF. */
  pages: 2_000,
  /** Paragraphs, rows or lines of any document. */
  paragraphs: 100_000,
  /** Characters of text read from any document (≈ 10,000 chunks). */
  characters: 12_000_000,
  /** Chunks one document may make. */
  chunksPerDocument: 10_000,
  /** Chunks all of a workspace's documents may make together (search time grows with them). */
  chunksPerWorkspace: 50_000,
  /** Memory the reader of one document may use. */
  readMemoryMb: 256,
  /** Time the reader of one document may take. */
  readSeconds: 120,
} as const;

/**
 * Why a document failed, for the app to say in the reader's language; `error_message` says it in
 * English with the detail. `unreadable`: the file itself (corrupt, a scan without text, empty);
 * `crashed`: its reader stopped on every attempt; `site_unreachable`: a crawl's start page could not
 * be fetched (`error_message` names what failed: DNS, refused, timeout, TLS, HTTP status, a blocked
 * private address).
 */
export const DocumentFailure = z.enum([
  "unreadable",
  "too_large",
  "too_many_pages",
  "too_many_paragraphs",
  "too_many_chunks",
  "workspace_full",
  "out_of_memory",
  "timed_out",
  "crashed",
  "site_unreachable",
]);
export type DocumentFailure = z.infer<typeof DocumentFailure>;

/**
 * Crawl intensity: how far links are followed from the given page and how many pages at most.
 * 1 = the page alone, 2 = same-site links one level down, 3 = two levels down.
 */
export const CRAWL_LIMITS = {
  1: { depth: 0, maxPages: 1 },
  2: { depth: 1, maxPages: 25 },
  3: { depth: 2, maxPages: 100 },
} as const;
export const CrawlIntensity = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type CrawlIntensity = z.infer<typeof CrawlIntensity>;

export const CrawlUrlBody = z.object({
  url: z.url({ protocol: /^https?$/, error: "Enter a web address starting with http:// or https://" }).max(2000),
  intensity: z.coerce.number().pipe(CrawlIntensity).default(1),
});
export type CrawlUrlBody = z.infer<typeof CrawlUrlBody>;

export const DocumentAgent = z.object({ id: z.string(), name: z.string() });
export type DocumentAgent = z.infer<typeof DocumentAgent>;

export const KnowledgeDocument = z.object({
  id: z.string(),
  name: z.string(),
  kind: DocumentKind.nullable(),
  status: DocumentStatus,
  error_message: z.string().nullable(),
  /** Why it failed (null unless `failed`). */
  error_code: DocumentFailure.nullable(),
  /** Bytes of the uploaded file, or of the crawled pages' text. */
  size_bytes: z.number().int(),
  chunk_count: z.number().int(),
  /** The crawled address; null for uploads. */
  url: z.string().nullable(),
  intensity: CrawlIntensity.nullable(),
  /** Crawl progress: pages read so far and pages found to read. */
  pages_done: z.number().int(),
  pages_found: z.number().int(),
  agents: z.array(DocumentAgent),
  ...timestamps,
});
export type KnowledgeDocument = z.infer<typeof KnowledgeDocument>;

export const DocumentList = z.array(KnowledgeDocument);
export type DocumentList = z.infer<typeof DocumentList>;

export const UploadDocumentsResponse = z.object({ documents: DocumentList });
export type UploadDocumentsResponse = z.infer<typeof UploadDocumentsResponse>;

export const DocumentLinkBody = z.object({ agent_id: z.uuid(), document_id: z.uuid() });
export type DocumentLinkBody = z.infer<typeof DocumentLinkBody>;

export const DOCUMENT_SEARCH_MAX_RESULTS = 20;

export const DocumentSearchQuery = z.object({
  q: z.string().trim().min(1, "Ask a question").max(1000),
  agent_id: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(DOCUMENT_SEARCH_MAX_RESULTS).default(5),
});
export type DocumentSearchQuery = z.infer<typeof DocumentSearchQuery>;

export const DocumentSearchHit = z.object({
  chunk_id: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  /** The headings the chunk sits under, joined with " › "; empty when it has none. */
  heading: z.string(),
  text: z.string(),
  /** Reciprocal-rank-fusion score: higher is better; comparable only within one answer. */
  score: z.number(),
});
export type DocumentSearchHit = z.infer<typeof DocumentSearchHit>;

export const DocumentSearchResponse = z.object({
  results: z.array(DocumentSearchHit),
  /** "keyword": full-text search alone; "hybrid": full-text and embeddings, fused. */
  mode: z.enum(["keyword", "hybrid"]),
});
export type DocumentSearchResponse = z.infer<typeof DocumentSearchResponse>;

/** The workspace's embeddings provider; null provider = keyword search only. */
export const KnowledgeSettings = z.object({
  embeddings_provider: EmbeddingsProviderId.nullable(),
  embeddings_model: z.string().nullable(),
});
export type KnowledgeSettings = z.infer<typeof KnowledgeSettings>;

export const KnowledgeSettingsResponse = KnowledgeSettings.extend({
  /** False when the database has no pgvector: documents are then searched by keywords only. */
  vector_search_available: z.boolean(),
});
export type KnowledgeSettingsResponse = z.infer<typeof KnowledgeSettingsResponse>;
