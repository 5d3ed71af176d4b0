import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { type RecordedRequest, sendJson } from "../../testing/llm-servers/mock-server.ts";
import { mockServersPerTest } from "../../testing/llm-servers/mock-servers-per-test.ts";
import { listModels, listVoices, testConnection } from "./catalog.ts";
import { ProviderError } from "./provider-error.ts";

const net = { fetch };
const startServer = mockServersPerTest();

/** A port on 127.0.0.1 that nothing listens on. */
async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === "object" && address ? address.port : 1;
}

const unauthorized = (_req: RecordedRequest, res: Parameters<typeof sendJson>[0]) =>
  sendJson(res, 401, { detail: { status: "invalid_api_key", message: "Invalid API key" } });

describe("listVoices", () => {
  it("reads ElevenLabs voices with the xi-api-key header", async () => {
    const server = await startServer({
      "GET /v1/voices": (_req, res) =>
        sendJson(res, 200, { voices: [{ voice_id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel", category: "premade" }] }),
    });
    const voices = await listVoices("elevenlabs", { api_key: "xi" }, net, { baseUrl: server.url });
    expect(voices).toEqual([{ id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" }]);
    expect(server.requests[0]?.headers["xi-api-key"]).toBe("xi");
  });

  it("follows Cartesia's cursor pages and sends its version header", async () => {
    const server = await startServer({
      "GET /voices": (req, res) =>
        req.query.get("starting_after") === "v2"
          ? sendJson(res, 200, { data: [{ id: "v3", name: "Three" }], has_more: false })
          : sendJson(res, 200, {
              data: [
                { id: "v1", name: "One" },
                { id: "v2", name: "Two" },
              ],
              has_more: true,
            }),
    });
    const voices = await listVoices("cartesia", { api_key: "sk_car" }, net, { baseUrl: server.url });
    expect(voices.map((v) => v.id)).toEqual(["v1", "v2", "v3"]);
    expect(server.requests[0]?.headers["x-api-key"]).toBe("sk_car");
    expect(server.requests[0]?.headers["cartesia-version"]).toBe("2025-04-16");
  });

  it("takes Deepgram voices from the tts section of /v1/models, narrowed to one model", async () => {
    const server = await startServer({
      "GET /v1/models": (_req, res) =>
        sendJson(res, 200, {
          stt: [{ name: "nova-3", canonical_name: "nova-3" }],
          tts: [
            { name: "thalia", canonical_name: "aura-2-thalia-en", languages: ["en-US"] },
            { name: "asteria", canonical_name: "aura-asteria-en", languages: ["en-US"] },
          ],
        }),
    });
    const voices = await listVoices("deepgram", { api_key: "dg" }, net, { baseUrl: server.url, model: "aura-2" });
    expect(voices).toEqual([{ id: "aura-2-thalia-en", name: "Thalia (en-US)" }]);
    expect(server.requests[0]?.headers.authorization).toBe("Token dg");
  });

  it("merges PlayHT stock and cloned voices, authenticated by key and user id", async () => {
    const server = await startServer({
      "GET /api/v2/voices": (_req, res) => sendJson(res, 200, [{ id: "s3://stock/manifest.json", name: "Jennifer" }]),
      "GET /api/v2/cloned-voices": (_req, res) =>
        sendJson(res, 200, [{ id: "s3://clone/manifest.json", name: "Mine" }]),
    });
    const voices = await listVoices("playht", { api_key: "secret", user_id: "user-1" }, net, { baseUrl: server.url });
    expect(voices.map((v) => v.name)).toEqual(["Mine", "Jennifer"]);
    expect(server.requests[0]?.headers).toMatchObject({ authorization: "secret", "x-user-id": "user-1" });
  });

  it("reads Rime's public catalog keyed by model and language", async () => {
    const server = await startServer({
      "GET /data/voices/all-v2.json": (_req, res) =>
        sendJson(res, 200, { mistv2: { eng: ["cove", "allison"], spa: ["isa"] }, arcana: { eng: ["luna"] } }),
    });
    const voices = await listVoices("rime-ai", null, net, { baseUrl: server.url, model: "mistv2" });
    expect(voices).toEqual([
      { id: "cove", name: "Cove (eng)" },
      { id: "allison", name: "Allison (eng)" },
      { id: "isa", name: "Isa (spa)" },
    ]);
  });

  it("reads Neuphonic voices from data.voices", async () => {
    const server = await startServer({
      "GET /voices": (_req, res) =>
        sendJson(res, 200, { data: { voices: [{ voice_id: "e564ba7e", name: "Emily", lang_code: "en" }] } }),
    });
    expect(await listVoices("neuphonic", { api_key: "np" }, net, { baseUrl: server.url })).toEqual([
      { id: "e564ba7e", name: "Emily" },
    ]);
    expect(server.requests[0]?.headers["x-api-key"]).toBe("np");
  });

  it("fails with a non-retryable ProviderError on a 401", async () => {
    const server = await startServer({ "GET /v1/voices": unauthorized });
    const error = await listVoices("elevenlabs", { api_key: "bad" }, net, { baseUrl: server.url }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 401, retryable: false, message: expect.stringContaining("Invalid API key") });
  });

  it("lists OpenAI's built-in voices without a network call", async () => {
    const voices = await listVoices("openai", null, { fetch: () => Promise.reject(new Error("no network")) });
    expect(voices).toContainEqual({ id: "alloy", name: "Alloy" });
  });
});

describe("listModels", () => {
  it("keeps only chat models from an OpenAI-style /models list", async () => {
    const server = await startServer({
      "GET /openai/v1/models": (_req, res) =>
        sendJson(res, 200, {
          data: [{ id: "llama-3.3-70b-versatile" }, { id: "whisper-large-v3" }, { id: "gemma2-9b-it" }],
        }),
    });
    expect(await listModels("groq", { api_key: "gsk" }, net, { baseUrl: server.url })).toEqual([
      "gemma2-9b-it",
      "llama-3.3-70b-versatile",
    ]);
    expect(await listModels("groq", { api_key: "gsk" }, net, { baseUrl: server.url, kind: "stt" })).toEqual([
      "whisper-large-v3",
    ]);
  });

  it("keeps Gemini models that generate content, without the models/ prefix", async () => {
    const server = await startServer({
      "GET /v1beta/models": (_req, res) =>
        sendJson(res, 200, {
          models: [
            { name: "models/gemini-2.5-flash", supportedGenerationMethods: ["generateContent", "countTokens"] },
            { name: "models/text-embedding-004", supportedGenerationMethods: ["embedContent"] },
          ],
        }),
    });
    expect(await listModels("google", { api_key: "AIza" }, net, { baseUrl: server.url })).toEqual(["gemini-2.5-flash"]);
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("AIza");
  });
});

describe("testConnection", () => {
  it("says how many models an LLM key can use", async () => {
    const server = await startServer({
      "GET /v1/models": (_req, res) =>
        sendJson(res, 200, { data: [{ id: "claude-sonnet-4-5" }, { id: "claude-haiku-4-5" }] }),
    });
    expect(await testConnection("anthropic", { api_key: "sk-ant" }, net, { baseUrl: server.url })).toEqual({
      ok: true,
      message: "Connected to Anthropic. 2 models available.",
    });
    expect(server.requests[0]?.headers["anthropic-version"]).toBe("2023-06-01");
  });

  it("reports rejected credentials as not ok, with the vendor's reason", async () => {
    const server = await startServer({
      "GET /v1/models": (_req, res) => sendJson(res, 401, { error: { message: "Incorrect API key provided" } }),
    });
    expect(await testConnection("openai", { api_key: "sk-bad" }, net, { baseUrl: server.url })).toEqual({
      ok: false,
      message: "OpenAI rejected the credentials (HTTP 401: Incorrect API key provided).",
    });
  });

  it("checks a Twilio account with basic auth on the account resource", async () => {
    const server = await startServer({
      "GET /2010-04-01/Accounts/AC123.json": (_req, res) =>
        sendJson(res, 200, { sid: "AC123", friendly_name: "Support line", status: "active" }),
    });
    const result = await testConnection("twilio", { account_sid: "AC123", auth_token: "tok" }, net, {
      baseUrl: server.url,
    });
    expect(result).toEqual({ ok: true, message: 'Connected to Twilio account "Support line".' });
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("AC123:tok").toString("base64")}`);
  });

  it("checks Vonage, Telnyx, Plivo and WhatsApp at their documented paths", async () => {
    const server = await startServer({
      "GET /account/get-balance": (_req, res) => sendJson(res, 200, { value: 10.5, autoReload: false }),
      "GET /v2/balance": (_req, res) => sendJson(res, 200, { data: { balance: "300.00", currency: "USD" } }),
      "GET /v1/Account/MA123/": (_req, res) => sendJson(res, 200, { name: "Acme", cash_credits: "12.0" }),
      "GET /v21.0/1055": (_req, res) =>
        sendJson(res, 200, { id: "1055", display_phone_number: "+1 555-0100", verified_name: "Acme" }),
    });
    const baseUrl = server.url;
    expect(await testConnection("vonage", { api_key: "k", api_secret: "s" }, net, { baseUrl })).toMatchObject({
      ok: true,
    });
    expect(server.requests[0]?.url).toBe("/account/get-balance?api_key=k&api_secret=s");
    expect(await testConnection("telnyx", { api_key: "KEY" }, net, { baseUrl })).toEqual({
      ok: true,
      message: "Connected to Telnyx. Balance: 300.00 USD",
    });
    expect(server.requests[1]?.headers.authorization).toBe("Bearer KEY");
    expect(await testConnection("plivo", { auth_id: "MA123", auth_token: "t" }, net, { baseUrl })).toMatchObject({
      ok: true,
    });
    const whatsapp = await testConnection("whatsapp", { access_token: "EAAG", phone_number_id: "1055" }, net, {
      baseUrl,
    });
    expect(whatsapp).toEqual({ ok: true, message: "Connected to WhatsApp number Acme, +1 555-0100." });
    expect(server.requests[3]?.headers.authorization).toBe("Bearer EAAG");
  });

  it("proves a Rime key with the coverage lookup", async () => {
    const server = await startServer({ "POST /oov": (_req, res) => sendJson(res, 200, []) });
    expect(await testConnection("rime-ai", { api_key: "rk" }, net, { baseUrl: server.url })).toEqual({
      ok: true,
      message: "Connected to Rime.",
    });
    expect(server.requests[0]?.json()).toEqual({ text: "hello" });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer rk");
  });

  it("returns ok:false with the network error when the vendor cannot be reached", async () => {
    const port = await refusedPort();
    const result = await testConnection("deepgram", { api_key: "dg" }, net, { baseUrl: `http://127.0.0.1:${port}` });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^Could not reach Deepgram: network error: .*ECONNREFUSED/);
  });

  it("names the missing credential instead of calling the vendor", async () => {
    expect(await testConnection("plivo", { auth_id: "MA1" }, { fetch: () => Promise.reject(new Error("no")) })).toEqual(
      {
        ok: false,
        message: "No auth token for Plivo. Add one on the Integrations page.",
      },
    );
  });

  it("needs nothing for the local providers", async () => {
    expect(await testConnection("local", null, net)).toMatchObject({ ok: true });
  });
});
