import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/provider-error.ts";
import type { AudioChunk, TtsProvider } from "../../src/providers/types.ts";
import type { FakeTtsOptions, FakeTtsServer } from "./fake-tts-http.ts";
import type { RecordedRequest } from "./http-server.ts";

export interface TtsSpec {
  name: string;
  start(options: FakeTtsOptions): Promise<FakeTtsServer>;
  provider(baseUrl: string, apiKey: string): TtsProvider;
  /** The sample rate the adapter's chunks must carry. */
  sampleRate: number;
  /** Checks the vendor-specific request (path, auth, query, body). */
  checkRequest(request: RecordedRequest): void;
}

/**
 * The behaviour every synthesis adapter must show against its vendor fake: audio arrives before the
 * answer is complete, samples split across network chunks come out whole, and refusals are
 * classified by status.
 */
export function describeTts(spec: TtsSpec): void {
  let server: FakeTtsServer | null = null;
  afterEach(async () => {
    server?.release();
    await server?.close();
    server = null;
  });
  const apiKey = "test-key";
  const failure = async (status: number | undefined, key: string) => {
    server = await spec.start({ apiKey, status });
    const chunks = spec.provider(server.baseUrl, key).synthesize("Hello there.");
    try {
      for await (const _ of chunks) {
        // Draining until the error surfaces.
      }
    } catch (error) {
      return error;
    }
    throw new Error("synthesis did not fail");
  };

  describe(`${spec.name} speech synthesis`, () => {
    it("streams PCM chunks as they arrive and reassembles samples split across network chunks", async () => {
      server = await spec.start({ apiKey });
      const iterator = spec.provider(server.baseUrl, apiKey).synthesize("Hello there.")[Symbol.asyncIterator]();
      const first = await iterator.next();
      // The first audio is out while the fake still holds back the rest of its answer.
      expect(first.done).toBe(false);
      expect(server.holding).toBe(true);
      server.release();
      const chunks: AudioChunk[] = [first.value as AudioChunk];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) chunks.push(next.value);
      expect(chunks.length).toBeGreaterThan(2);
      for (const chunk of chunks) expect(chunk.sampleRate).toBe(spec.sampleRate);
      const joined = Int16Array.from(chunks.flatMap((chunk) => Array.from(chunk.pcm)));
      expect(joined).toEqual(server.expectedPcm(spec.sampleRate));
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0];
      if (request) spec.checkRequest(request);
    });

    it("fails with a non-retryable error when the key is refused", async () => {
      const error = await failure(undefined, "wrong-key");
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 401, retryable: false });
    });

    it.each([429, 500, 503])("fails with a retryable error on HTTP %i", async (status) => {
      expect(await failure(status, apiKey)).toMatchObject({ status, retryable: true });
    });

    it("sends nothing for empty text", async () => {
      server = await spec.start({ apiKey });
      const chunks: AudioChunk[] = [];
      for await (const chunk of spec.provider(server.baseUrl, apiKey).synthesize("  ")) chunks.push(chunk);
      expect(chunks).toEqual([]);
      expect(server.requests).toHaveLength(0);
    });
  });
}
