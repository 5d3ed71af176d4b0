import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/provider-error.ts";
import type { SttProvider, TranscriptEvent } from "../../src/providers/types.ts";
import { closeAfterEach } from "../close-after-each.ts";
import type { FakeSttOptions } from "./fake-stt.ts";
import { speak, TranscriptRecorder } from "./stt-harness.ts";
import type { FakeWsServer } from "./ws-server.ts";

export interface StreamingSttSpec {
  name: string;
  start(options: FakeSttOptions): Promise<FakeWsServer>;
  provider(baseUrl: string, apiKey: string): SttProvider;
  /** Partials arrive while the caller speaks (false: only once the utterance is finalized). */
  partialsWhileSpeaking?: boolean;
  /** Checks the vendor-specific details of the happy path (handshake, frames, control messages). */
  checkHappyPath(server: FakeWsServer, recorder: TranscriptRecorder): void;
}

/**
 * The behaviour every streaming recogniser adapter must show against its vendor fake: partials then a
 * final and the utterance end, vendor refusals classified by status, and one reconnect mid-call.
 */
export function describeStreamingStt(spec: StreamingSttSpec): void {
  const closing = closeAfterEach();
  const apiKey = "test-key";

  describe(`${spec.name} streaming recognition`, () => {
    it("streams audio, reports a partial while speaking, then the final and the utterance end", async () => {
      const server = closing(await spec.start({ apiKey, transcript: "hello there world" }));
      const recorder = new TranscriptRecorder();
      const session = await spec.provider(server.baseUrl, apiKey).open(recorder.options());
      await speak(session, 300);
      const partial = (e: TranscriptEvent) => e.type === "partial" && e.text.startsWith("hello");
      if (spec.partialsWhileSpeaking !== false) await recorder.waitForEvent(partial, "a partial while speaking");
      session.finalize();
      await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
      expect(recorder.events.findIndex(partial)).toBeLessThan(recorder.events.findIndex((e) => e.type === "final"));
      expect(recorder.events.findIndex(partial)).toBeGreaterThanOrEqual(0);
      await session.close();
      expect(recorder.finals()).toEqual(["hello there world"]);
      expect(recorder.errors).toEqual([]);
      spec.checkHappyPath(server, recorder);
    });

    it("fails to open with a non-retryable error when the key is refused", async () => {
      const server = closing(await spec.start({ apiKey }));
      const error = await spec
        .provider(server.baseUrl, "wrong-key")
        .open(new TranscriptRecorder().options())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 401, retryable: false });
    });

    it.each([429, 500])("fails to open with a retryable error on HTTP %i", async (status) => {
      const server = closing(await spec.start({ apiKey, handshakeStatus: status }));
      const error = await spec
        .provider(server.baseUrl, apiKey)
        .open(new TranscriptRecorder().options())
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status, retryable: true });
    });

    it("reconnects once when the socket drops mid-call and keeps transcribing", async () => {
      const server = closing(await spec.start({ apiKey, dropFirstAfterBytes: 3_200 }));
      const recorder = new TranscriptRecorder();
      const session = await spec.provider(server.baseUrl, apiKey).open(recorder.options());
      await speak(session, 400, 3);
      await recorder.waitFor(() => (server.connections.length ?? 0) === 2, "a second connection");
      await speak(session, 200, 1);
      session.finalize();
      await recorder.waitForEvent((e) => e.type === "final", "a final after reconnecting");
      await session.close();
      expect(recorder.finals()).toEqual(["hello world"]);
      expect(recorder.errors).toEqual([]);
      expect(server.connections).toHaveLength(2);
    });
  });
}
