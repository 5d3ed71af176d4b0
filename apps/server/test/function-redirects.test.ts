import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { useSavedAndOtherHost } from "./support/recording-host.ts";

/**
 * Issue 25 item 5: a function's, tool server's or provider's host that answers with a redirect to
 * another host never gets its saved headers or key sent there; the redirect is refused with a
 * sentence that says why.
 */

const API_KEY = "fn-redirect-api-key-0123456789";

/** `other` stands for the host a redirect points at: it must never see a saved header. */
const { other } = useSavedAndOtherHost({ answered: true });
const t = useTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

/** The host a function or tool server was saved with; it answers `/<status>/…` with that redirect to `other`. */
let redirecting: Server;
let saved = "";
beforeAll(async () => {
  redirecting = createServer((req, res) => {
    req.resume();
    const status = Number(req.url?.split("/")[1]);
    res.writeHead(status, { location: `${other.url}/landed` }).end();
  });
  await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
  saved = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
});
afterAll(async () => {
  redirecting.closeAllConnections();
  await new Promise((resolve) => redirecting.close(resolve));
});

async function testCall(token: string, body: Record<string, unknown>) {
  const created = await call(t, "POST", "/api/v1/functions", {
    token,
    body: { description: "Looks things up", ...body },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: string }>().id;
  const res = await call(t, "POST", `/api/v1/functions/${id}/test`, { token, body: { arguments: { q: "x" } } });
  expect(res.statusCode).toBe(200);
  return res.json<{ ok: boolean; status: number; error?: string }>();
}

describe("a function whose host redirects to another host", () => {
  it.each([301, 302, 303, 307, 308])("keeps its saved headers from the other host (%i)", async (status) => {
    const { token } = await signedInUser(t);
    const warn = vi.spyOn(t.ctx.calls.log, "warn");
    const url = `${saved}/${status}/hook`;
    const result = await testCall(token, { name: `keyed_${status}`, url, headers: { "X-Api-Key": API_KEY } });

    expect(result).toMatchObject({
      ok: false,
      status: 0,
      error: `${url} redirected to another host (${other.url}); the function's headers are only sent to ${saved}.`,
    });
    expect(other.seen).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      { from: saved, to: other.url, headers: ["x-api-key"] },
      "function webhook redirected to another host; not followed",
    );
    expect(JSON.stringify(warn.mock.calls)).not.toContain(API_KEY);
    warn.mockRestore();
  });

  it("keeps its signature from the other host", async () => {
    const { token } = await signedInUser(t);
    const result = await testCall(token, {
      name: "signed_fn",
      url: `${saved}/307/hook`,
      secret: "whsec-signing-secret",
    });
    expect(result.error).toContain("redirected to another host");
    expect(other.seen).toEqual([]);
  });

  it("without headers or secret is followed there, carrying nothing but what describes the request", async () => {
    const { token } = await signedInUser(t);
    const result = await testCall(token, { name: "plain_fn", url: `${saved}/307/hook` });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(other.seen).toHaveLength(1);
    expect(Object.keys(other.seen[0]?.headers ?? {}).filter((h) => h.startsWith("x-"))).toEqual([]);
  });
});

describe("a tool server whose host redirects to another host", () => {
  it("is not saved, and the other host never sees its token", async () => {
    const { token } = await signedInUser(t);
    const warn = vi.spyOn(t.ctx.calls.log, "warn");
    const url = `${saved}/307/mcp`;
    const res = await call(t, "POST", "/api/v1/mcp-servers", {
      token,
      body: { name: "Redirecting tools", url, headers: { Authorization: `Bearer ${API_KEY}` } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `Could not connect to the MCP server at ${url}: it redirected to another host (${other.url}); saved headers are only sent to ${saved}.`,
    });
    expect(other.seen).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      { from: saved, to: other.url },
      "MCP server redirected to another host; not followed",
    );
    warn.mockRestore();
  });
});

describe("a provider endpoint that redirects to another host", () => {
  it("never hands the provider's key to the other host", async () => {
    const { token } = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/integrations/azure-openai/test", {
      token,
      body: { credentials: { endpoint: `${saved}/307`, api_key: API_KEY } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: false });
    expect(res.json<{ message: string }>().message).toContain(
      `Refusing to follow a redirect from ${saved} to ${other.url}: the request's`,
    );
    expect(other.seen).toEqual([]);
  });
});
