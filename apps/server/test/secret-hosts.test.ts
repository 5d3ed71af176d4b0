import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { callSettingsOf } from "@parley/engine";
import { testAssistant } from "@parley/engine/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildCallProviders } from "../src/modules/calls/providers.ts";
import { resolveCredentials } from "../src/modules/integrations/credentials.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

/**
 * Issue 10 item 3: a stored or server credential is only ever sent to the host it was saved with.
 * Two local servers stand for the saved host and a host a user points a URL at afterwards; every
 * request either receives is recorded, so a secret reaching the second is seen.
 */

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
}

const AZURE_ENV_KEY = "azure-operator-key-0123456789abcdef";

function recordingServer(seen: Seen[]): Server {
  return createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    req.resume();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ data: [{ id: "model-a" }] }));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let t: TestApp;
const savedSeen: Seen[] = [];
const otherSeen: Seen[] = [];
const saved = recordingServer(savedSeen);
const other = recordingServer(otherSeen);
let savedUrl = "";
let otherUrl = "";

beforeAll(async () => {
  [savedUrl, otherUrl] = await Promise.all([listen(saved), listen(other)]);
  t = await createTestApp({
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    AZURE_OPENAI_API_KEY: AZURE_ENV_KEY,
    AZURE_OPENAI_ENDPOINT: savedUrl,
  });
});

afterAll(async () => {
  await t.close();
  for (const s of [saved, other]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

beforeEach(() => {
  savedSeen.length = 0;
  otherSeen.length = 0;
});

/** Every header value the other host received, to look for a secret in. */
const otherHeard = () => otherSeen.flatMap((s) => Object.values(s.headers).flat()).join("\n");

describe("integration credentials stay with their host", () => {
  it("does not merge a test request's endpoint over the server's environment key", async () => {
    const { token } = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/integrations/azure-openai/test", {
      token,
      body: { credentials: { endpoint: `${otherUrl}/` } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: false, message: "API key is required." });
    expect(otherSeen).toEqual([]);
    expect(otherHeard()).not.toContain(AZURE_ENV_KEY);
  });

  it("still tests the environment credentials at their own endpoint when nothing is given", async () => {
    const { token } = await signedInUser(t);
    await call(t, "POST", "/api/v1/integrations/azure-openai/test", { token, body: {} });
    expect(savedSeen.length).toBeGreaterThan(0);
    expect(savedSeen[0]?.headers["api-key"]).toBe(AZURE_ENV_KEY);
  });

  it("asks for a stored key again before testing or saving a base URL on another host", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const key = "sk-workspace-key-0123456789";
    const put = (credentials: Record<string, string>) =>
      call(t, "PUT", "/api/v1/integrations/openai-compatible", { token, body: { credentials } });
    expect((await put({ base_url: `${savedUrl}/v1`, api_key: key })).statusCode).toBe(200);

    const moved = { base_url: `${otherUrl}/v1` };
    const test = await call(t, "POST", "/api/v1/integrations/openai-compatible/test", {
      token,
      body: { credentials: moved },
    });
    const again = "Enter the API key again: a saved secret is only sent to the Base URL it was saved with.";
    expect(test.json()).toEqual({ ok: false, message: again });
    const save = await put(moved);
    expect(save.statusCode).toBe(422);
    expect(save.json()).toEqual({ detail: again });
    expect(otherSeen).toEqual([]);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toEqual({
      base_url: `${savedUrl}/v1`,
      api_key: key,
    });

    // Another path on the same host keeps the key; a key typed again goes with the new host.
    expect((await put({ base_url: `${savedUrl}/api/v1` })).statusCode).toBe(200);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toMatchObject({ api_key: key });
    expect((await put({ base_url: `${otherUrl}/v1`, api_key: "sk-new-key-for-other-host" })).statusCode).toBe(200);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toEqual({
      base_url: `${otherUrl}/v1`,
      api_key: "sk-new-key-for-other-host",
    });
  });

  it("gives an assistant's own base URL the stored key only when it is the saved host", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const key = "sk-workspace-key-for-calls-0001";
    await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
      token,
      body: { credentials: { base_url: `${savedUrl}/v1`, api_key: key } },
    });
    const resolve = (url: string) => resolveCredentials(t.ctx, workspaceId, "openai-compatible", { url });
    expect(await resolve(`${savedUrl}/other/v1`)).toEqual({ base_url: `${savedUrl}/v1`, api_key: key });
    expect(await resolve(`${otherUrl}/v1`)).toEqual({ base_url: `${savedUrl}/v1` });
    // A vendor on its own host: an assistant-given URL never gets the operator's key.
    expect(await resolveCredentials(t.ctx, workspaceId, "azure-openai", { url: `${otherUrl}/` })).toEqual({
      endpoint: savedUrl,
    });
  });

  it("builds a call's model on an assistant's own base URL without the key saved for another host", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const key = "sk-workspace-key-for-calls-0002";
    await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
      token,
      body: { credentials: { base_url: `${savedUrl}/v1`, api_key: key } },
    });
    const settingsFor = (baseUrl: string) =>
      callSettingsOf(
        testAssistant({
          llm_provider: "openai-compatible",
          llm_provider_config: { model: "m", base_url: baseUrl },
          stt_provider: "local",
          stt_provider_config: {},
          tts_provider: "local",
        }),
      ).providers;
    const ask = async (baseUrl: string) => {
      const { llm } = await buildCallProviders(t.ctx, workspaceId, settingsFor(baseUrl));
      try {
        for await (const _ of llm.chat({ messages: [{ role: "user", content: "hi" }] })) break;
      } catch {
        // The recording servers answer a model list, not a stream: only the request matters here.
      }
    };
    await ask(`${otherUrl}/v1`);
    expect(otherSeen.length).toBeGreaterThan(0);
    expect(otherSeen.every((r) => r.headers.authorization === undefined)).toBe(true);
    await ask(`${savedUrl}/v1`);
    expect(savedSeen.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
  });
});
