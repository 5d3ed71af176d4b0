import { DeepgramSttConfig } from "@parley/contract";
import { afterEach, describe, expect, it } from "vitest";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { startFakeDeepgramListen } from "../../../testing/vendor-servers/fake-deepgram-listen.ts";
import { speak, TranscriptRecorder } from "../../../testing/vendor-servers/stt-harness.ts";
import type { FakeWsServer } from "../../../testing/vendor-servers/ws-server.ts";
import { header } from "../../../testing/vendor-servers/ws-server.ts";
import { ProviderError } from "../provider-error.ts";
import { DeepgramStt } from "./stt.ts";

let server: FakeWsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const config = DeepgramSttConfig.parse({ keyterms: ["Parley", "voice agent"], numerals: true });
const provider = (baseUrl: string, apiKey = "dg-key") =>
  new DeepgramStt({ apiKey, config, net: defaultNetwork(), baseUrl });

describe("Deepgram live transcription", () => {
  it("streams linear16 audio with the assistant's settings and reports partials, finals and the utterance end", async () => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key", transcript: "hello there world" });
    const recorder = new TranscriptRecorder();
    const session = await provider(server.baseUrl).open(recorder.options());

    await speak(session, 200);
    await recorder.waitForEvent((e) => e.type === "partial" && e.text === "hello", "an interim result");
    session.finalize();
    await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
    await session.close();

    expect(recorder.finals()).toEqual(["hello there world"]);
    expect(recorder.events.at(-2)).toMatchObject({ type: "final", confidence: 0.98 });
    const upgrade = server.upgrades[0];
    expect(upgrade && header(upgrade, "authorization")).toBe("Token dg-key");
    const query = upgrade?.url.searchParams;
    expect(upgrade?.url.pathname).toBe("/v1/listen");
    expect(Object.fromEntries(query ?? [])).toMatchObject({
      model: "nova-3",
      language: "en",
      encoding: "linear16",
      sample_rate: "16000",
      channels: "1",
      punctuate: "true",
      numerals: "true",
      filler_words: "false",
      profanity_filter: "false",
      interim_results: "true",
    });
    expect(query?.getAll("keyterm")).toEqual(["Parley", "voice agent"]);
    const connection = server.connections[0];
    expect(connection?.audioBytes).toBe(200 * 32);
    expect(connection?.texts).toEqual([{ type: "Finalize" }, { type: "CloseStream" }]);
    expect(recorder.errors).toEqual([]);
  });

  it("asks for Deepgram's multilingual mode when the language is detected", async () => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key" });
    const stt = new DeepgramStt({
      apiKey: "dg-key",
      config: DeepgramSttConfig.parse({ detect_language: true, model: "nova-2", keywords: ["Parley:2"] }),
      net: defaultNetwork(),
      baseUrl: server.baseUrl,
    });
    const session = await stt.open(new TranscriptRecorder().options());
    await session.close();
    expect(server.upgrades[0]?.url.searchParams.get("language")).toBe("multi");
    expect(server.upgrades[0]?.url.searchParams.getAll("keywords")).toEqual(["Parley:2"]);
  });

  it("resamples the call's 16 kHz audio to a configured 8 kHz stream", async () => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key" });
    const stt = new DeepgramStt({
      apiKey: "dg-key",
      config: DeepgramSttConfig.parse({ sample_rate: 8000 }),
      net: defaultNetwork(),
      baseUrl: server.baseUrl,
    });
    const session = await stt.open(new TranscriptRecorder().options());
    await speak(session, 200);
    await session.close();
    expect(server.upgrades[0]?.url.searchParams.get("sample_rate")).toBe("8000");
    expect(Math.abs((server.connections[0]?.audioBytes ?? 0) - 200 * 16)).toBeLessThanOrEqual(2);
  });

  it("fails to open with a non-retryable error when the key is refused", async () => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key" });
    const error = await provider(server.baseUrl, "wrong")
      .open(new TranscriptRecorder().options())
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 401, retryable: false });
  });

  it.each([429, 503])("fails to open with a retryable error on HTTP %i", async (status) => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key", handshakeStatus: status });
    const error = await provider(server.baseUrl)
      .open(new TranscriptRecorder().options())
      .catch((e) => e);
    expect(error).toMatchObject({ status, retryable: true });
  });

  it("fails with a retryable error when nothing listens", async () => {
    const error = await provider("ws://127.0.0.1:9")
      .open(new TranscriptRecorder().options())
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: true });
  });

  it("reconnects once when the socket drops mid-call and keeps transcribing", async () => {
    server = await startFakeDeepgramListen({ apiKey: "dg-key", dropFirstAfterBytes: 1_600 });
    const recorder = new TranscriptRecorder();
    const session = await provider(server.baseUrl).open(recorder.options());

    await speak(session, 300, 3);
    await recorder.waitFor(() => (server?.connections.length ?? 0) === 2, "a second connection");
    session.finalize();
    await recorder.waitForEvent((e) => e.type === "final", "a final after reconnecting");
    await session.close();

    expect(recorder.finals()).toEqual(["hello world"]);
    expect(recorder.errors).toEqual([]);
    expect(server.connections[1]?.texts).toContainEqual({ type: "Finalize" });
    expect(server.upgrades.map((u) => header(u, "authorization"))).toEqual(["Token dg-key", "Token dg-key"]);
  });
});
