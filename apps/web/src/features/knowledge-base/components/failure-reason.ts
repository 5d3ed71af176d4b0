import { DOCUMENT_LIMITS, type KnowledgeDocument } from "@parley/contract";
import type { TFunction } from "i18next";

/** The figures the failure sentences name, in the interface's language. */
function limitFigures(language: string) {
  const n = (value: number) => new Intl.NumberFormat(language).format(value);
  return {
    pages: n(DOCUMENT_LIMITS.pages),
    paragraphs: n(DOCUMENT_LIMITS.paragraphs),
    characters: n(DOCUMENT_LIMITS.characters),
    unzippedMb: n(DOCUMENT_LIMITS.unzippedBytes / (1024 * 1024)),
    chunks: n(DOCUMENT_LIMITS.chunksPerDocument),
    workspaceChunks: n(DOCUMENT_LIMITS.chunksPerWorkspace),
    memoryMb: n(DOCUMENT_LIMITS.readMemoryMb),
    minutes: n(DOCUMENT_LIMITS.readSeconds / 60),
  };
}

/** What to show under a document's status: a sentence in the reader's language, and the server's raw detail. */
export interface DocumentReason {
  sentence: string;
  /** The server's English sentence naming what failed (shown as is, left to right); null when the sentence says it all. */
  detail: string | null;
}

/**
 * Why a document failed in the reader's language when the server named a limit (or a reader that
 * kept stopping); for a crawl whose site could not be read, a translated frame over the server's
 * detail (DNS, refused, timeout, TLS, HTTP status); else the server's own sentence (an unreadable
 * file's detail, or why a ready document is searched by keywords only).
 */
export function documentReason(t: TFunction, document: KnowledgeDocument, language: string): DocumentReason | null {
  const code = document.error_code;
  if (document.status === "failed" && code === "site_unreachable")
    return { sentence: t("failure.site_unreachable"), detail: document.error_message };
  if (document.status === "failed" && code && code !== "unreadable")
    return { sentence: t(`failure.${code}`, limitFigures(language)), detail: null };
  return document.error_message === null ? null : { sentence: document.error_message, detail: null };
}
