import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { bundledWorker } from "./bundled-worker.ts";
import type { ReadAnswer } from "./extract-worker.ts";

/**
 * The document reader's thread, run from source, loads a JavaScript bundle of its TypeScript entry
 * (no TypeScript loader in the thread: registering tsx there cost seconds of CPU at every start),
 * bundled once per process.
 */
describe("a worker entry bundled from source", () => {
  const entry = new URL("./extract-worker.ts", import.meta.url);

  it("is a JavaScript file a plain worker thread runs: it reads a document", async () => {
    const file = await bundledWorker(entry);
    expect(file.pathname).toMatch(/\.mjs$/);
    // No execArgv and no eval'd loader: the thread gets nothing but the bundle.
    const worker = new Worker(file, { execArgv: [] });
    try {
      const data = new Uint8Array(Buffer.from("Opening hours are nine to five.\n"));
      const answer = new Promise<ReadAnswer>((resolve, reject) => {
        worker.once("message", (message: { answer: ReadAnswer }) => resolve(message.answer));
        worker.once("error", reject);
      });
      worker.postMessage({ id: 1, data });
      expect(await answer).toMatchObject({
        ok: true,
        kind: "text",
        chunks: [{ content: "Opening hours are nine to five." }],
      });
    } finally {
      await worker.terminate();
    }
  }, 120_000);

  it("is bundled once per process", async () => {
    expect(bundledWorker(entry)).toBe(bundledWorker(entry));
    expect((await bundledWorker(entry)).href).toBe((await bundledWorker(entry)).href);
  }, 120_000);
});
