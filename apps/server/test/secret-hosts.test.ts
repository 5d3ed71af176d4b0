import { callSettingsOf } from "@parley/engine";
import { testAssistant } from "@parley/engine/testing";
import { describe, expect, it } from "vitest";
import { buildCallProviders } from "../src/modules/calls/providers.ts";
import { resolveCredentials } from "../src/modules/integrations/credentials.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { useSavedAndOtherHost } from "./support/recording-host.ts";

/**
 * Issue 10 item 3: a stored or server credential is only ever sent to the host it was saved with.
 * Two local servers stand for the saved host and a host a user points a URL at afterwards; every
 * request either receives is recorded, so a secret reaching the second is seen.
 */

const AZURE_ENV_KEY = "azure-operator-key-0123456789abcdef";

/** The host a credential was saved with, and a host a user points a URL at afterwards. */
const { saved, other } = useSavedAndOtherHost({ data: [{ id: "model-a" }] });
// The server's own Azure key is for the saved host: the app starts once that host listens.
const t = useTestApp(() => ({
  PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  AZURE_OPENAI_API_KEY: AZURE_ENV_KEY,
  AZURE_OPENAI_ENDPOINT: saved.url,
}));

/** Every header value the other host received, to look for a secret in. */
const otherHeard = () => other.seen.flatMap((s) => Object.values(s.headers).flat()).join("\n");

/** A signed-in user whose workspace saved `key` for the OpenAI-compatible vendor on the saved host. */
async function userWithKeyForSavedHost(key: string) {
  const user = await signedInUser(t);
  await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
    token: user.token,
    body: { credentials: { base_url: `${saved.url}/v1`, api_key: key } },
  });
  return user;
}

describe("integration credentials stay with their host", () => {
  it("does not merge a test request's endpoint over the server's environment key", async () => {
    const { token } = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/integrations/azure-openai/test", {
      token,
      body: { credentials: { endpoint: `${other.url}/` } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: false, message: "API key is required." });
    expect(other.seen).toEqual([]);
    expect(otherHeard()).not.toContain(AZURE_ENV_KEY);
  });

  it("still tests the environment credentials at their own endpoint when nothing is given", async () => {
    const { token } = await signedInUser(t);
    await call(t, "POST", "/api/v1/integrations/azure-openai/test", { token, body: {} });
    expect(saved.seen.length).toBeGreaterThan(0);
    expect(saved.seen[0]?.headers["api-key"]).toBe(AZURE_ENV_KEY);
  });

  it("asks for a stored key again before testing or saving a base URL on another host", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const key = "sk-workspace-key-0123456789";
    const put = (credentials: Record<string, string>) =>
      call(t, "PUT", "/api/v1/integrations/openai-compatible", { token, body: { credentials } });
    expect((await put({ base_url: `${saved.url}/v1`, api_key: key })).statusCode).toBe(200);

    const moved = { base_url: `${other.url}/v1` };
    const test = await call(t, "POST", "/api/v1/integrations/openai-compatible/test", {
      token,
      body: { credentials: moved },
    });
    const again = "Enter the API key again: a saved secret is only sent to the Base URL it was saved with.";
    expect(test.json()).toEqual({ ok: false, message: again });
    const save = await put(moved);
    expect(save.statusCode).toBe(422);
    expect(save.json()).toEqual({ detail: again, errors: [{ field: "credentials.api_key", message: again }] });
    expect(other.seen).toEqual([]);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toEqual({
      base_url: `${saved.url}/v1`,
      api_key: key,
    });

    // Another path on the same host keeps the key; a key typed again goes with the new host.
    expect((await put({ base_url: `${saved.url}/api/v1` })).statusCode).toBe(200);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toMatchObject({ api_key: key });
    expect((await put({ base_url: `${other.url}/v1`, api_key: "sk-new-key-for-other-host" })).statusCode).toBe(200);
    expect(await resolveCredentials(t.ctx, workspaceId, "openai-compatible")).toEqual({
      base_url: `${other.url}/v1`,
      api_key: "sk-new-key-for-other-host",
    });
  });

  it("gives an assistant's own base URL the stored key only when it is the saved host", async () => {
    const key = "sk-workspace-key-for-calls-0001";
    const { workspaceId } = await userWithKeyForSavedHost(key);
    const resolve = (url: string) => resolveCredentials(t.ctx, workspaceId, "openai-compatible", { url });
    expect(await resolve(`${saved.url}/other/v1`)).toEqual({ base_url: `${saved.url}/v1`, api_key: key });
    expect(await resolve(`${other.url}/v1`)).toEqual({ base_url: `${saved.url}/v1` });
    // A vendor on its own host: an assistant-given URL never gets the operator's key.
    expect(await resolveCredentials(t.ctx, workspaceId, "azure-openai", { url: `${other.url}/` })).toEqual({
      endpoint: saved.url,
    });
  });

  it("builds a call's model on an assistant's own base URL without the key saved for another host", async () => {
    const key = "sk-workspace-key-for-calls-0002";
    const { workspaceId } = await userWithKeyForSavedHost(key);
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
    await ask(`${other.url}/v1`);
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.every((r) => r.headers.authorization === undefined)).toBe(true);
    await ask(`${saved.url}/v1`);
    expect(saved.seen.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
  });
});
