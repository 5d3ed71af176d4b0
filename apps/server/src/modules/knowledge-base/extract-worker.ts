import { parentPort } from "node:worker_threads";
import type { DocumentFailure, DocumentKind } from "@parley/contract";
import { boundedChunks, type Chunk } from "./chunking.ts";
import { ExtractionError, extractDocument } from "./extract/index.ts";

/**
 * The thread that reads uploaded files into chunks, one at a time (extract-in-worker.ts starts it
 * with a memory limit and gives each file a deadline): parsing a hostile PDF or Word file can take
 * all the memory and time it is given, and here that is the thread's, not the server's.
 */

export interface ReadRequest {
  id: number;
  data: Uint8Array;
}

export type ReadAnswer =
  | { ok: true; kind: DocumentKind; pages: number; chunks: Chunk[] }
  | { ok: false; message: string; code: DocumentFailure | null };

async function read(data: Uint8Array): Promise<ReadAnswer> {
  try {
    const extracted = await extractDocument(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return { ok: true, kind: extracted.kind, pages: extracted.pages, chunks: boundedChunks(extracted.sections) };
  } catch (error) {
    if (error instanceof ExtractionError) return { ok: false, message: error.message, code: error.code };
    // Anything else is a fault of ours or of a library: the job retries it.
    return { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error), code: null };
  }
}

parentPort?.on("message", async ({ id, data }: ReadRequest) => {
  parentPort?.postMessage({ id, answer: await read(data) });
});
