import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentRow, agents } from "../src/modules/assistants/schema.ts";
import { callMcpTool } from "../src/modules/mcp-servers/client.ts";
import { mcpServers } from "../src/modules/mcp-servers/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

/** The official reference server, run locally in the given transport mode. */
const require = createRequire(import.meta.url);
const everythingEntry = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const address = probe.address();
  await new Promise((r) => probe.close(r));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function startEverything(mode: "streamableHttp" | "sse"): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (/listening on port|running on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`, child };
}

let t: TestApp;
let streamable: { url: string; child: ChildProcess };
let sse: { url: string; child: ChildProcess };

beforeAll(async () => {
  [streamable, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")]);
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
}, 40_000);

afterAll(async () => {
  await t?.close();
  streamable?.child.kill();
  sse?.child.kill();
});

interface ServerJson {
  id: string;
  name: string;
  url: string;
  timeout: number;
  headers: Record<string, string>;
  transport: string;
}

async function createServerVia(token: string, body: Record<string, unknown>) {
  const res = await call(t, "POST", "/api/v1/mcp-servers", { token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ mcp_server: ServerJson }>().mcp_server;
}

async function insertAgent(workspaceId: string): Promise<string> {
  const values = { workspaceId, name: "Agent", config: {} as AgentRow["config"] };
  const [row] = await t.ctx.db.insert(agents).values(values).returning();
  if (!row) throw new Error("no agent");
  return row.id;
}

describe("MCP servers", () => {
  it("creates a server after connecting, lists its tools and calls one", async () => {
    const { token } = await signedInUser(t);
    const server = await createServerVia(token, {
      name: "Everything",
      url: streamable.url,
      headers: { Authorization: "Bearer secret-token-123456" },
    });
    expect(server).toMatchObject({ name: "Everything", timeout: 30, transport: "auto", url: streamable.url });
    expect(server.headers).toEqual({ Authorization: "Bea…3456" });

    const [row] = await t.ctx.db.select().from(mcpServers).where(eq(mcpServers.id, server.id));
    expect(row?.headers).not.toContain("secret-token");

    const tools = await call(t, "GET", `/api/v1/mcp-servers/${server.id}/tools`, { token });
    expect(tools.statusCode, tools.body).toBe(200);
    const list = tools.json<{ tools: { name: string; description: string; input_schema: { type: string } }[] }>();
    const echo = list.tools.find((tool) => tool.name === "echo");
    expect(echo?.description).toBeTruthy();
    expect(echo?.input_schema.type).toBe("object");

    if (!row) throw new Error("row missing");
    const result = await callMcpTool(t.ctx, row, "echo", { message: "hello parley" });
    expect(result).toEqual({ text: "Echo: hello parley", isError: false });
  });

  it("falls back to SSE for a server that only speaks it", async () => {
    const { token } = await signedInUser(t);
    const server = await createServerVia(token, { name: "Legacy", url: sse.url });
    const tools = await call(t, "GET", `/api/v1/mcp-servers/${server.id}/tools`, { token });
    expect(tools.json<{ tools: { name: string }[] }>().tools.map((x) => x.name)).toContain("echo");
  });

  it("refuses to save a server it cannot reach, with a clear message", async () => {
    const { token } = await signedInUser(t);
    await createServerVia(token, { name: "Good", url: streamable.url });
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    const res = await call(t, "POST", "/api/v1/mcp-servers", { token, body: { name: "Bad", url: dead, timeout: 5 } });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toMatch(
      new RegExp(`^Could not connect to the MCP server at ${dead.replaceAll(".", "\\.")}: .+`),
    );
    const list = await call(t, "GET", "/api/v1/mcp-servers", { token });
    expect(list.json<{ mcp_servers: ServerJson[]; total: number }>()).toMatchObject({ total: 1 });
  });

  it("pages the list, reads, updates and deletes", async () => {
    const { token } = await signedInUser(t);
    const first = await createServerVia(token, {
      name: "One",
      url: streamable.url,
      headers: { "X-Key": "abcdefghijkl" },
    });
    const second = await createServerVia(token, { name: "Two", url: streamable.url, transport: "streamable-http" });
    const page = await call(t, "GET", "/api/v1/mcp-servers?skip=1&limit=1", { token });
    expect(page.json()).toMatchObject({ total: 2, mcp_servers: [{ id: first.id }] });
    expect((await call(t, "GET", "/api/v1/mcp-servers?limit=101", { token })).statusCode).toBe(422);

    const one = await call(t, "GET", `/api/v1/mcp-servers/${second.id}`, { token });
    expect(one.json()).toMatchObject({ mcp_server: { id: second.id, name: "Two" } });

    const updated = await call(t, "PUT", `/api/v1/mcp-servers/${first.id}`, {
      token,
      body: { name: "One renamed", timeout: 12, headers: { "X-Key": "…ijkl", "X-Other": "plain-value-99" } },
    });
    expect(updated.json()).toMatchObject({ mcp_server: { name: "One renamed", timeout: 12 } });
    const [row] = await t.ctx.db.select().from(mcpServers).where(eq(mcpServers.id, first.id));
    const stored = JSON.parse(t.ctx.secrets.decrypt(row?.headers ?? ""));
    expect(stored).toEqual({ "X-Key": "abcdefghijkl", "X-Other": "plain-value-99" });

    const badUrl = await call(t, "PUT", `/api/v1/mcp-servers/${first.id}`, {
      token,
      body: { url: `http://127.0.0.1:${await freePort()}/mcp`, timeout: 3 },
    });
    expect(badUrl.statusCode).toBe(422);
    const unchanged = await call(t, "GET", `/api/v1/mcp-servers/${first.id}`, { token });
    expect(unchanged.json()).toMatchObject({ mcp_server: { url: streamable.url, name: "One renamed" } });

    const del = await call(t, "DELETE", `/api/v1/mcp-servers/${first.id}`, { token });
    expect(del.json()).toEqual({ message: "MCP server deleted." });
    expect((await call(t, "GET", `/api/v1/mcp-servers/${first.id}`, { token })).statusCode).toBe(404);
  });

  it("asks for the headers again before a server's URL moves to another host", async () => {
    const { token } = await signedInUser(t);
    const server = await createServerVia(token, {
      name: "Keyed",
      url: streamable.url,
      headers: { Authorization: "Bearer stored-token-abcdef123456" },
    });
    const put = (body: Record<string, unknown>) => call(t, "PUT", `/api/v1/mcp-servers/${server.id}`, { token, body });
    const again = {
      detail: "Enter the header values again: saved header values are only sent to the URL they were saved with.",
    };
    for (const body of [{ url: sse.url }, { url: sse.url, headers: server.headers }]) {
      const res = await put(body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual(again);
    }
    const [row] = await t.ctx.db.select().from(mcpServers).where(eq(mcpServers.id, server.id));
    expect(row?.url).toBe(streamable.url);

    const moved = await put({ url: sse.url, headers: { Authorization: "Bearer token-for-the-sse-host-0001" } });
    expect(moved.statusCode, moved.body).toBe(200);
    const [after] = await t.ctx.db.select().from(mcpServers).where(eq(mcpServers.id, server.id));
    expect(JSON.parse(t.ctx.secrets.decrypt(after?.headers ?? ""))).toEqual({
      Authorization: "Bearer token-for-the-sse-host-0001",
    });
  });

  it("validates bodies (422)", async () => {
    const { token } = await signedInUser(t);
    for (const body of [
      { name: "", url: streamable.url },
      { name: "x", url: "ws://example.com" },
      { name: "x", url: streamable.url, timeout: 0 },
      { name: "x", url: streamable.url, transport: "stdio" },
    ]) {
      expect((await call(t, "POST", "/api/v1/mcp-servers", { token, body })).statusCode, JSON.stringify(body)).toBe(
        422,
      );
    }
  });

  it("links servers to assistants and keeps workspaces apart", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const server = await createServerVia(a.token, { name: "Linked", url: streamable.url });
    const agentId = await insertAgent(a.workspaceId);
    const link = `/api/v1/agents/${agentId}/mcp-servers/${server.id}`;
    for (let i = 0; i < 2; i += 1) {
      expect((await call(t, "POST", link, { token: a.token })).json()).toEqual({ message: "MCP server assigned." });
    }
    const linked = await call(t, "GET", `/api/v1/agents/${agentId}/mcp-servers`, { token: a.token });
    expect(linked.json<{ mcp_servers: ServerJson[] }>().mcp_servers.map((s) => s.id)).toEqual([server.id]);

    const asB = { token: b.token };
    expect((await call(t, "GET", `/api/v1/mcp-servers/${server.id}`, asB)).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/mcp-servers/${server.id}/tools`, asB)).statusCode).toBe(404);
    expect((await call(t, "PUT", `/api/v1/mcp-servers/${server.id}`, { ...asB, body: { name: "x" } })).statusCode).toBe(
      404,
    );
    expect((await call(t, "DELETE", `/api/v1/mcp-servers/${server.id}`, asB)).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/agents/${agentId}/mcp-servers`, asB)).statusCode).toBe(404);
    expect((await call(t, "POST", link, asB)).statusCode).toBe(404);
    expect((await call(t, "GET", "/api/v1/mcp-servers", asB)).json()).toEqual({ mcp_servers: [], total: 0 });

    expect((await call(t, "DELETE", link, { token: a.token })).json()).toEqual({ message: "MCP server unassigned." });
    const after = await call(t, "GET", `/api/v1/agents/${agentId}/mcp-servers`, { token: a.token });
    expect(after.json()).toEqual({ mcp_servers: [] });
  });

  it("answers 401 without a token", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, url] of [
      ["GET", "/api/v1/mcp-servers"],
      ["POST", "/api/v1/mcp-servers"],
      ["GET", `/api/v1/mcp-servers/${id}`],
      ["PUT", `/api/v1/mcp-servers/${id}`],
      ["DELETE", `/api/v1/mcp-servers/${id}`],
      ["GET", `/api/v1/mcp-servers/${id}/tools`],
      ["GET", `/api/v1/agents/${id}/mcp-servers`],
      ["POST", `/api/v1/agents/${id}/mcp-servers/${id}`],
      ["DELETE", `/api/v1/agents/${id}/mcp-servers/${id}`],
    ] as const) {
      expect((await call(t, method, url, { body: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  // Starts a server of its own: on a loaded machine that alone can take most of the default 30 s.
  it("refuses an MCP server on a private address without the allow-list", { timeout: 120_000 }, async () => {
    const strict = await createTestApp();
    try {
      const { token } = await signedInUser(strict);
      const body = { name: "Internal", url: "http://10.0.0.1/mcp" };
      const res = await call(strict, "POST", "/api/v1/mcp-servers", { token, body });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail:
          "Could not connect to the MCP server at http://10.0.0.1/mcp: Refusing to connect to 10.0.0.1: private address. Set PARLEY_ALLOWED_PRIVATE_HOSTS to allow it.",
      });
      const local = await call(strict, "POST", "/api/v1/mcp-servers", {
        token,
        body: { name: "Local", url: streamable.url },
      });
      expect(local.json<{ detail: string }>().detail).toContain("Refusing to connect to 127.0.0.1: loopback address");
    } finally {
      await strict.close();
    }
  });
});
