import { PassThrough, type Readable } from "node:stream";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/**
 * A ZIP written as it is read: fflate's streaming Zip pushes each piece into a Node stream the
 * reply sends, and the writer waits whenever that stream is full, so a person's export (up to a
 * thousand calls and their recordings) never sits in memory whole.
 */
export class ZipWriter {
  readonly stream = new PassThrough();
  private readonly zip: Zip;
  private failure: Error | null = null;
  /** Whether the whole ZIP, directory included, has been written. */
  complete = false;

  constructor() {
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failure = err;
        this.stream.destroy(err);
        return;
      }
      // The last piece does not end the stream: close() does, once the export is audited.
      if (!this.stream.destroyed) this.stream.write(chunk);
      this.complete = final;
    });
  }

  /** Whether the reader is gone (the download was cancelled) or the ZIP failed. */
  get stopped(): boolean {
    return this.stream.destroyed || this.failure !== null;
  }

  /** A compressed file whose text comes in pieces (the JSON). */
  async text(name: string, pieces: AsyncIterable<string>, mtime: Date): Promise<void> {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = mtime;
    this.zip.add(file);
    const encoder = new TextEncoder();
    for await (const piece of pieces) {
      if (this.stopped) return;
      file.push(encoder.encode(piece));
      await this.room();
    }
    file.push(new Uint8Array(0), true);
    await this.room();
  }

  /** A file stored as it is (audio barely compresses), copied from a stream or bytes. */
  async binary(name: string, body: Readable | Uint8Array, mtime: Date): Promise<void> {
    const file = new ZipPassThrough(name);
    file.mtime = mtime;
    this.zip.add(file);
    if (body instanceof Uint8Array) file.push(body);
    else {
      for await (const chunk of body) {
        if (this.stopped) {
          body.destroy();
          return;
        }
        file.push(chunk as Uint8Array);
        await this.room();
      }
    }
    file.push(new Uint8Array(0), true);
    await this.room();
  }

  /** Writes the ZIP's directory. */
  finish(): void {
    if (!this.stopped) this.zip.end();
  }

  /** Ends the stream (the reply finishes once the reader has it all), or fails it when the ZIP is not complete. */
  close(error?: Error): void {
    if (this.stream.destroyed) return;
    if (this.complete && !error) this.stream.end();
    else this.stream.destroy(error ?? new Error("the ZIP was not finished"));
  }

  /** Waits while the reader is behind (or until it is gone). */
  private room(): Promise<void> {
    if (!this.stream.writableNeedDrain || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off("drain", done);
        this.stream.off("close", done);
        resolve();
      };
      this.stream.on("drain", done);
      this.stream.on("close", done);
    });
  }
}
