import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { NetworkDeps } from "@parley/engine";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { TestApp } from "./harness.ts";

/**
 * A local stand-in for ElevenLabs' voice catalog and cloning API (GET /v1/voices, GET /v1/models,
 * POST /v1/voices/add, DELETE /v1/voices/{id}), answering the documented shapes.
 */
export interface FakeElevenLabs {
  origin: string;
  /** Requests seen, as "METHOD /path" with the xi-api-key used. */
  requests: { line: string; key: string | undefined; body: string }[];
  voices: { voice_id: string; name: string }[];
  /** Voice ids the vendor has already forgotten (DELETE answers 404). */
  forgotten: Set<string>;
  /** When set, POST /v1/voices/add fails with this status and message. */
  failCloneWith?: { status: number; message: string };
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("latin1");
}

export async function startFakeElevenLabs(): Promise<FakeElevenLabs> {
  let cloneCount = 0;
  const fake: Omit<FakeElevenLabs, "origin" | "close"> = {
    requests: [],
    voices: [
      { voice_id: "live-voice-1", name: "Live Rachel" },
      { voice_id: "live-voice-2", name: "Live Adam" },
    ],
    forgotten: new Set(),
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    const key = req.headers["xi-api-key"] as string | undefined;
    fake.requests.push({ line: `${req.method} ${path}`, key, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (key !== "sk-el-test") return json(401, { detail: { status: "invalid_api_key", message: "Invalid API key" } });
    if (req.method === "GET" && path === "/v1/voices") return json(200, { voices: fake.voices });
    if (req.method === "GET" && path === "/v1/models") {
      return json(200, [
        { model_id: "eleven_flash_v2_5", can_do_text_to_speech: true },
        { model_id: "eleven_multilingual_sts_v2", can_do_text_to_speech: false },
      ]);
    }
    if (req.method === "POST" && path === "/v1/voices/add") {
      if (fake.failCloneWith) {
        return json(fake.failCloneWith.status, { detail: { message: fake.failCloneWith.message } });
      }
      cloneCount += 1;
      const voiceId = `clone-${cloneCount}`;
      return json(200, { voice_id: voiceId, requires_verification: false });
    }
    const voice = path.match(/^\/v1\/voices\/([^/]+)$/)?.[1];
    if (req.method === "DELETE" && voice) {
      if (fake.forgotten.has(voice)) return json(404, { detail: { message: "voice_not_found" } });
      return json(200, { status: "ok" });
    }
    json(404, { detail: "not found" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A network that sends ElevenLabs' API host to the fake (everything else as usual). */
export function routedNetwork(origin: string, base: NetworkDeps): NetworkDeps {
  return {
    ...base,
    fetch: ((input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input).replace(
        /^https:\/\/api\.elevenlabs\.io/,
        origin,
      );
      return fetch(url, init);
    }) as typeof fetch,
  };
}

export interface ElevenLabsFixture {
  vendor: FakeElevenLabs;
  /** The app's own network, which a test may swap for routedNetwork(vendor.origin, realNetwork). */
  realNetwork: NetworkDeps;
}

/**
 * For one test file on the app `t`: a fake ElevenLabs started before the tests and closed after
 * them. After each test the app's network is its own again and the fake's clone failure is cleared,
 * so no test inherits another's routing.
 */
export function useFakeElevenLabs(t: TestApp): ElevenLabsFixture {
  const fixture = {} as ElevenLabsFixture;
  beforeAll(async () => {
    fixture.vendor = await startFakeElevenLabs();
    fixture.realNetwork = t.ctx.network;
  });
  afterEach(() => {
    t.ctx.network = fixture.realNetwork;
    if (fixture.vendor) fixture.vendor.failCloneWith = undefined;
  });
  afterAll(async () => {
    await fixture.vendor?.close();
  });
  return fixture;
}
