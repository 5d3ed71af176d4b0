import { DOCUMENT_LIMITS } from "@parley/contract";
import { ExtractionError, type Section } from "./extract/index.ts";

export interface Chunk {
  heading: string;
  content: string;
}

/** About 150–250 words: small enough to pin an answer, large enough to carry its context. */
export const CHUNK_TARGET_CHARS = 1200;
const HEADING_SEPARATOR = " › ";

/** Splits an over-long paragraph at sentence ends (or, failing that, at spaces). */
function pieces(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const sentences = paragraph.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [paragraph];
  const out: string[] = [];
  let current = "";
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > max) {
      out.push(current.trim());
      current = "";
    }
    if (sentence.length > max) {
      for (let i = 0; i < sentence.length; i += max) out.push(sentence.slice(i, i + max).trim());
    } else current += sentence;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Packs each section's paragraphs into chunks of about CHUNK_TARGET_CHARS. A chunk never spans
 * two sections, and carries its section's heading trail, so "Opening hours › Weekends" stays with
 * "10:00 to 14:00" for the keyword index, the embedding and the model reading the result.
 */
export function chunkSections(sections: Section[], max = CHUNK_TARGET_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const heading = section.headings.join(HEADING_SEPARATOR);
    let current: string[] = [];
    let length = 0;
    const flush = () => {
      if (current.length > 0) chunks.push({ heading, content: current.join("\n") });
      current = [];
      length = 0;
    };
    for (const paragraph of section.paragraphs.flatMap((p) => pieces(p, max))) {
      if (length > 0 && length + paragraph.length > max) flush();
      current.push(paragraph);
      length += paragraph.length + 1;
    }
    flush();
  }
  return chunks;
}

/** The text an embedding is made of: the heading trail, then the chunk. */
export const embeddingText = (chunk: Chunk) => (chunk.heading ? `${chunk.heading}\n${chunk.content}` : chunk.content);

/** The chunks, or an ExtractionError when a document makes more than one may (DOCUMENT_LIMITS). */
export function boundedChunks(sections: Section[]): Chunk[] {
  const chunks = chunkSections(sections);
  if (chunks.length === 0) throw new ExtractionError("The document has no text to index.");
  const limit = DOCUMENT_LIMITS.chunksPerDocument;
  if (chunks.length > limit) {
    throw new ExtractionError(
      `The document makes ${chunks.length.toLocaleString("en-US")} chunks; the knowledge base keeps at most ${limit.toLocaleString("en-US")} from one file. Split it into smaller files.`,
      "too_many_chunks",
    );
  }
  return chunks;
}
