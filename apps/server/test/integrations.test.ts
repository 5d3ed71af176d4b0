import { INTEGRATION_CATALOG } from "@parley/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCredentials } from "../src/modules/integrations/credentials.ts";
import { integrations } from "../src/modules/integrations/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { signedInMember } from "./support/workspace-members.ts";

interface IntegrationJson {
  provider: string;
  configured: boolean;
  source: string | null;
  values: Record<string, string>;
  fields: { name: string; secret: boolean }[];
  last_test: { ok: boolean; message: string; tested_at: string } | null;
}

let t: TestApp;
beforeAll(async () => {
  // A server-wide Deepgram key: workspaces without their own fall back to it.
  t = await createTestApp({ DEEPGRAM_API_KEY: "dg-env-key-0123456789" });
});
afterAll(() => t.close());

const list = async (token: string) =>
  (await call(t, "GET", "/api/v1/integrations", { token })).json<{ integrations: IntegrationJson[] }>().integrations;
const entry = async (token: string, provider: string) => (await list(token)).find((i) => i.provider === provider);

describe("integrations", () => {
  it("lists every catalog provider, unconfigured, with the environment fallback marked", async () => {
    const { token } = await signedInUser(t);
    const all = await list(token);
    expect(all.map((i) => i.provider)).toEqual(INTEGRATION_CATALOG.map((p) => p.id));
    expect(all.find((i) => i.provider === "openai")).toMatchObject({ configured: false, source: null, values: {} });
    expect(all.find((i) => i.provider === "deepgram")).toMatchObject({ configured: false, source: "environment" });
    expect(all.find((i) => i.provider === "twilio")?.fields).toEqual([
      expect.objectContaining({ name: "account_sid", secret: false }),
      expect.objectContaining({ name: "auth_token", secret: true }),
      // A regional edge (or a local double) replaces the vendor's API host; saved secrets go only there.
      expect.objectContaining({ name: "base_url", optional: true, url: true }),
    ]);
  });

  it("saves credentials masked in responses and encrypted at rest", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const res = await call(t, "PUT", "/api/v1/integrations/twilio", {
      token,
      body: { credentials: { account_sid: "AC1234567890abcdef", auth_token: "super-secret-auth-token-wxyz" } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      provider: "twilio",
      configured: true,
      source: "workspace",
      values: { account_sid: "AC1234567890abcdef", auth_token: "sup…wxyz" },
    });
    expect(await entry(token, "twilio")).toMatchObject({ values: { auth_token: "sup…wxyz" } });

    const [row] = await t.ctx.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.provider, "twilio")));
    expect(row?.credentials).toMatch(/^v1\./);
    expect(row?.credentials).not.toContain("super-secret");
    expect(row?.credentials).not.toContain("AC1234567890");

    // An empty secret keeps the stored one while the other field changes.
    await call(t, "PUT", "/api/v1/integrations/twilio", {
      token,
      body: { credentials: { account_sid: "AC999", auth_token: "" } },
    });
    expect(await resolveCredentials(t.ctx, workspaceId, "twilio")).toEqual({
      account_sid: "AC999",
      auth_token: "super-secret-auth-token-wxyz",
    });
  });

  it("resolves workspace credentials first, then the server's environment", async () => {
    const { token, workspaceId } = await signedInUser(t);
    expect(await resolveCredentials(t.ctx, workspaceId, "deepgram")).toEqual({ api_key: "dg-env-key-0123456789" });
    expect(await resolveCredentials(t.ctx, workspaceId, "openai")).toBeNull();
    await call(t, "PUT", "/api/v1/integrations/deepgram", {
      token,
      body: { credentials: { api_key: "dg-own-key-abcd" } },
    });
    expect(await resolveCredentials(t.ctx, workspaceId, "deepgram")).toEqual({ api_key: "dg-own-key-abcd" });
  });

  it("validates credentials against the provider's fields (422) and unknown providers (404)", async () => {
    const { token } = await signedInUser(t);
    const put = (provider: string, credentials: Record<string, string>) =>
      call(t, "PUT", `/api/v1/integrations/${provider}`, { token, body: { credentials } });
    const missing = await put("playht", { api_key: "k-123456789" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: "User ID is required." });
    expect((await put("openai", { api_key: "sk-x", extra: "y" })).json()).toEqual({
      detail: 'OpenAI has no field "extra".',
    });
    expect((await put("azure-openai", { api_key: "k", endpoint: "not a url" })).json()).toEqual({
      detail: "Endpoint must be an http(s) URL.",
    });
    expect((await put("openai-compatible", { base_url: "http://10.0.0.2:11434/v1" })).statusCode).toBe(200);
    expect((await call(t, "PUT", "/api/v1/integrations/openai", { token, body: {} })).statusCode).toBe(422);
    expect((await put("nope", { api_key: "x" })).statusCode).toBe(404);
    expect((await call(t, "DELETE", "/api/v1/integrations/nope", { token })).statusCode).toBe(404);
  });

  it("lets members read but only owners write", async () => {
    const owner = await signedInUser(t);
    const { token } = await signedInMember(t, owner.workspaceId);
    await call(t, "PUT", "/api/v1/integrations/openai", {
      token: owner.token,
      body: { credentials: { api_key: "sk-owner-key-1234" } },
    });
    expect(await entry(token, "openai")).toMatchObject({ configured: true, values: { api_key: "…1234" } });
    const body = { credentials: { api_key: "sk-member-key" } };
    expect((await call(t, "PUT", "/api/v1/integrations/openai", { token, body })).statusCode).toBe(403);
    expect((await call(t, "DELETE", "/api/v1/integrations/openai", { token })).statusCode).toBe(403);
    expect((await call(t, "POST", "/api/v1/integrations/openai/test", { token, body: {} })).statusCode).toBe(403);
  });

  it("keeps workspaces apart", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    await call(t, "PUT", "/api/v1/integrations/groq", {
      token: a.token,
      body: { credentials: { api_key: "gsk-a-1234567" } },
    });
    expect(await entry(b.token, "groq")).toMatchObject({ configured: false, values: {} });
    expect((await call(t, "DELETE", "/api/v1/integrations/groq", { token: b.token })).statusCode).toBe(404);
    expect(await entry(a.token, "groq")).toMatchObject({ configured: true });
  });

  it("deletes credentials", async () => {
    const { token } = await signedInUser(t);
    await call(t, "PUT", "/api/v1/integrations/mistral", {
      token,
      body: { credentials: { api_key: "mk-1234567890" } },
    });
    const del = await call(t, "DELETE", "/api/v1/integrations/mistral", { token });
    expect(del.json()).toEqual({ message: "Integration removed." });
    expect(await entry(token, "mistral")).toMatchObject({ configured: false, values: {} });
  });

  it("tests a connection offline: ok false with a message, remembered on the integration", async () => {
    const { token } = await signedInUser(t);
    const none = await call(t, "POST", "/api/v1/integrations/anthropic/test", { token, body: {} });
    expect(none.json()).toEqual({ ok: false, message: "No credentials are saved for Anthropic." });

    await call(t, "PUT", "/api/v1/integrations/openai", {
      token,
      body: { credentials: { api_key: "sk-test-1234567" } },
    });
    const res = await call(t, "POST", "/api/v1/integrations/openai/test", { token });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ ok: boolean; message: string }>();
    expect(result.ok).toBe(false);
    expect(result.message.length).toBeGreaterThan(5);
    expect((await entry(token, "openai"))?.last_test).toMatchObject({ ok: false, message: result.message });
  });

  it("answers 401 without a token", async () => {
    for (const [method, url] of [
      ["GET", "/api/v1/integrations"],
      ["PUT", "/api/v1/integrations/openai"],
      ["DELETE", "/api/v1/integrations/openai"],
      ["POST", "/api/v1/integrations/openai/test"],
    ] as const) {
      expect((await call(t, method, url, { body: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
