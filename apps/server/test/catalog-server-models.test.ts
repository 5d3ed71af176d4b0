import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { LLM_CATALOG } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveIntegration } from "../src/modules/integrations/service.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

/** A local OpenAI-style server (Ollama, vLLM): GET /v1/models, recording the authorization it got. */
interface ModelServer {
  root: string;
  seen: { path: string; authorization: string | undefined }[];
  models: string[];
  close(): Promise<void>;
}

async function startModelServer(models: string[]): Promise<ModelServer> {
  const seen: ModelServer["seen"] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    seen.push({ path, authorization: req.headers.authorization });
    if (path !== "/v1/models") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", owned_by: "me" })) }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    root: `http://127.0.0.1:${port}/v1`,
    seen,
    models,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let saved: ModelServer;
let other: ModelServer;
beforeAll(async () => {
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  saved = await startModelServer(["qwen3:8b", "llama3.2"]);
  other = await startModelServer(["mistral-small"]);
});
afterAll(async () => {
  await saved.close();
  await other.close();
  await t.close();
});

const modelsOf = (token: string, baseUrl?: string) =>
  call(
    t,
    "GET",
    baseUrl
      ? `/api/v1/models/openai-compatible?base_url=${encodeURIComponent(baseUrl)}`
      : "/api/v1/models/openai-compatible",
    { token },
  );

describe("GET /models/openai-compatible", () => {
  it("answers the built-in list without a base URL, as /models/{id} did", async () => {
    const a = await signedInUser(t);
    const res = await modelsOf(a.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ provider: "openai-compatible", models: LLM_CATALOG["openai-compatible"].models });
  });

  it("lists the server's own models, labelled where known, with the key saved for that host", async () => {
    const a = await signedInUser(t);
    await saveIntegration(t.ctx, a, "openai-compatible", { base_url: saved.root, api_key: "sk-local-key" });
    const res = await modelsOf(a.token, `${saved.root}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      provider: "openai-compatible",
      models: [{ value: "llama3.2", label: "Llama 3.2" }, { value: "qwen3:8b" }],
    });
    expect(saved.seen.at(-1)).toEqual({ path: "/v1/models", authorization: "Bearer sk-local-key" });
  });

  it("never sends a saved key to another host, nor one workspace's key for another", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    await saveIntegration(t.ctx, a, "openai-compatible", { base_url: saved.root, api_key: "sk-local-key" });

    const elsewhere = (await modelsOf(a.token, other.root)).json();
    expect(elsewhere).toEqual({ provider: "openai-compatible", models: [{ value: "mistral-small" }] });
    expect(other.seen.at(-1)).toEqual({ path: "/v1/models", authorization: undefined });

    const before = saved.seen.length;
    expect((await modelsOf(b.token, saved.root)).json().models).toHaveLength(2);
    expect(saved.seen.length).toBe(before + 1);
    expect(saved.seen.at(-1)?.authorization).toBeUndefined();
  });

  it("falls back to the built-in list with the reason when the server cannot be asked", async () => {
    const a = await signedInUser(t);
    const missingPath = (await modelsOf(a.token, `${other.root.replace(/\/v1$/, "")}/nothing-here`)).json();
    expect(missingPath).toEqual({
      provider: "openai-compatible",
      models: LLM_CATALOG["openai-compatible"].models,
      error: "HTTP 404: not found",
    });

    // A private address outside PARLEY_ALLOWED_PRIVATE_HOSTS is refused before any connection.
    const privateHost = (await modelsOf(a.token, "http://10.11.12.13:11434/v1")).json();
    expect(privateHost.models).toEqual(LLM_CATALOG["openai-compatible"].models);
    expect(privateHost.error).toMatch(
      /^network error: Refusing to connect to 10\.11\.12\.13.*PARLEY_ALLOWED_PRIVATE_HOSTS/,
    );
  });

  it("refuses a base URL that is not http(s) and needs sign-in", async () => {
    const a = await signedInUser(t);
    const bad = await modelsOf(a.token, "file:///etc/passwd");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual(expect.any(String));
    expect((await call(t, "GET", "/api/v1/models/openai-compatible")).statusCode).toBe(401);
  });
});
