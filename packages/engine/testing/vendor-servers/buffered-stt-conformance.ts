import { describe, expect, it } from "vitest";
import type { SttProvider } from "../../src/providers/types.ts";
import { closeAfterEach } from "../close-after-each.ts";
import type { FakeTranscriptionOptions } from "./fake-transcription-http.ts";
import type { FakeHttpServer } from "./http-server.ts";
import { speak, TranscriptRecorder } from "./stt-harness.ts";

export interface BufferedSttSpec {
  name: string;
  start(options: FakeTranscriptionOptions): Promise<FakeHttpServer>;
  provider(baseUrl: string, apiKey: string): SttProvider;
  /** Checks the vendor-specific request of the happy path (auth, fields, audio format). */
  checkRequest(server: FakeHttpServer): Promise<void>;
}

/** The behaviour every request-per-utterance recogniser must show against its vendor fake. */
export function describeBufferedStt(spec: BufferedSttSpec): void {
  const closing = closeAfterEach();
  const apiKey = "test-key";
  const run = async (options: Omit<FakeTranscriptionOptions, "apiKey">, key = apiKey) => {
    const server = closing(await spec.start({ apiKey, ...options }));
    const recorder = new TranscriptRecorder();
    const session = await spec.provider(server.baseUrl, key).open(recorder.options());
    await speak(session, 500, 0);
    session.finalize();
    return { recorder, session, server };
  };

  describe(`${spec.name} per-utterance recognition`, () => {
    it("sends the buffered utterance on finalize and reports its final and end", async () => {
      const { recorder, session, server } = await run({ transcript: "marhaba world" });
      await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
      await session.close();
      expect(recorder.finals()).toEqual(["marhaba world"]);
      expect(recorder.errors).toEqual([]);
      expect(server.requests).toHaveLength(1);
      await spec.checkRequest(server);
    });

    it("retries a retryable failure once", async () => {
      const { recorder, session, server } = await run({ failWith: [503] });
      await recorder.waitForEvent((e) => e.type === "final", "a final after the retry");
      await session.close();
      expect(server.requests).toHaveLength(2);
    });

    it.each([429, 500])("reports a retryable error when HTTP %i persists", async (status) => {
      const { recorder, session } = await run({ failWith: [status, status] });
      await recorder.waitFor(() => recorder.errors.length > 0, "an error");
      await session.close();
      expect(recorder.errors[0]).toMatchObject({ status, retryable: true });
    });

    it("reports a non-retryable error, without retrying, when the key is refused", async () => {
      const { recorder, session, server } = await run({}, "wrong-key");
      await recorder.waitFor(() => recorder.errors.length > 0, "an error");
      await session.close();
      expect(recorder.errors[0]).toMatchObject({ status: 401, retryable: false });
      expect(server.requests).toHaveLength(1);
    });

    it("closes an utterance too short to hold speech without a request", async () => {
      const server = closing(await spec.start({ apiKey }));
      const recorder = new TranscriptRecorder();
      const session = await spec.provider(server.baseUrl, apiKey).open(recorder.options());
      session.sendAudio(new Int16Array(320));
      session.finalize();
      await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
      await session.close();
      expect(server.requests).toHaveLength(0);
    });
  });
}
