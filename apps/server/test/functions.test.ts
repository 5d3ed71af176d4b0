import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentRow, agents } from "../src/modules/assistants/schema.ts";
import { functions } from "../src/modules/functions/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { startReceiver } from "./support/loopback.ts";

let t: TestApp;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let hookUrl = "";

beforeAll(async () => {
  hook = await startReceiver((request, res) => {
    if (request.url.startsWith("/big")) return res.end("x".repeat(100 * 1024));
    if (request.url.startsWith("/slow")) return setTimeout(() => res.end("late"), 3000);
    if (request.url.startsWith("/fail")) return res.writeHead(500).end("boom");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ weather: "sunny", got: request.body ? JSON.parse(request.body) : null }));
  });
  hookUrl = hook.origin;
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
});

afterAll(async () => {
  await t.close();
  await hook.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  url: `${hookUrl}/weather`,
  ...overrides,
});

async function insertAgent(workspaceId: string): Promise<string> {
  const [row] = await t.ctx.db
    .insert(agents)
    .values({ workspaceId, name: "Receptionist", config: {} as AgentRow["config"] })
    .returning();
  if (!row) throw new Error("no agent");
  return row.id;
}

async function createFn(token: string, overrides: Record<string, unknown> = {}) {
  const res = await call(t, "POST", "/api/v1/functions", { token, body: body(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; name: string; has_secret: boolean; timeout: number; method: string }>();
}

describe("functions CRUD", () => {
  it("creates with defaults, reads, lists, changes and deletes", async () => {
    const { token } = await signedInUser(t);
    const created = await createFn(token, { secret: "shh-signing-secret" });
    expect(created).toMatchObject({ name: "get_weather", method: "POST", timeout: 10, has_secret: true });
    expect(created).not.toHaveProperty("secret");

    const one = await call(t, "GET", `/api/v1/functions/${created.id}`, { token });
    expect(one.json()).toMatchObject({ id: created.id, headers: {} });
    const list = await call(t, "GET", "/api/v1/functions", { token });
    expect(list.json<{ id: string }[]>().map((f) => f.id)).toEqual([created.id]);

    const patched = await call(t, "PATCH", `/api/v1/functions/${created.id}`, {
      token,
      body: { method: "GET", timeout: 30, headers: { "X-Api-Key": "k1" } },
    });
    expect(patched.json()).toMatchObject({
      method: "GET",
      timeout: 30,
      headers: { "X-Api-Key": "••••" },
      has_secret: true,
    });
    const cleared = await call(t, "PATCH", `/api/v1/functions/${created.id}`, { token, body: { secret: null } });
    expect(cleared.json()).toMatchObject({ has_secret: false });

    const del = await call(t, "DELETE", `/api/v1/functions/${created.id}`, { token });
    expect(del.json()).toEqual({ message: "Function deleted." });
    expect((await call(t, "GET", `/api/v1/functions/${created.id}`, { token })).statusCode).toBe(404);
  });

  it("stores the secret encrypted", async () => {
    const { token } = await signedInUser(t);
    const created = await createFn(token, { name: "signed_fn", secret: "plain-secret-value" });
    const [row] = await t.ctx.db.select().from(functions).where(eq(functions.id, created.id));
    expect(row?.secret).toMatch(/^v1\./);
    expect(row?.secret).not.toContain("plain-secret-value");
  });

  it("rejects invalid functions with 422 and a duplicate name with 409", async () => {
    const { token } = await signedInUser(t);
    const cases = [
      { name: "Get-Weather" },
      { parameters: { type: "array" } },
      { parameters: { type: "object", properties: [] } },
      { url: "ftp://example.com/x" },
      { timeout: 121 },
      { method: "TRACE" },
      { headers: { "bad header": "x" } },
      { description: "" },
    ];
    for (const overrides of cases) {
      const res = await call(t, "POST", "/api/v1/functions", { token, body: body(overrides) });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(res.json<{ detail: string }>().detail).toBeTruthy();
    }
    await createFn(token, { name: "unique_name" });
    const dup = await call(t, "POST", "/api/v1/functions", { token, body: body({ name: "unique_name" }) });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ detail: 'A function named "unique_name" already exists.' });
  });

  it("answers 401 without a token", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, url] of [
      ["GET", "/api/v1/functions"],
      ["GET", `/api/v1/functions/${id}`],
      ["POST", "/api/v1/functions"],
      ["PATCH", `/api/v1/functions/${id}`],
      ["DELETE", `/api/v1/functions/${id}`],
      ["GET", `/api/v1/functions/agent/${id}`],
      ["POST", "/api/v1/functions/assign"],
      ["POST", "/api/v1/functions/unassign"],
      ["POST", `/api/v1/functions/${id}/test`],
    ] as const) {
      expect((await call(t, method, url, { body: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("hides another workspace's functions and assistants (404)", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const fn = await createFn(a.token, { name: "private_fn" });
    const agentA = await insertAgent(a.workspaceId);
    const agentB = await insertAgent(b.workspaceId);
    const asB = { token: b.token };
    expect((await call(t, "GET", `/api/v1/functions/${fn.id}`, asB)).statusCode).toBe(404);
    expect((await call(t, "PATCH", `/api/v1/functions/${fn.id}`, { ...asB, body: { timeout: 5 } })).statusCode).toBe(
      404,
    );
    expect((await call(t, "DELETE", `/api/v1/functions/${fn.id}`, asB)).statusCode).toBe(404);
    expect((await call(t, "POST", `/api/v1/functions/${fn.id}/test`, { ...asB, body: {} })).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/functions/agent/${agentA}`, asB)).statusCode).toBe(404);
    const crossed = { agent_id: agentB, function_id: fn.id };
    expect((await call(t, "POST", "/api/v1/functions/assign", { ...asB, body: crossed })).statusCode).toBe(404);
    const theirs = { agent_id: agentA, function_id: fn.id };
    expect((await call(t, "POST", "/api/v1/functions/assign", { ...asB, body: theirs })).statusCode).toBe(404);
    expect((await call(t, "GET", "/api/v1/functions", asB)).json()).toEqual([]);
  });
});

describe("assigning functions to assistants", () => {
  it("assigns idempotently, lists per assistant and unassigns", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const agentId = await insertAgent(workspaceId);
    const fn = await createFn(token, { name: "book_table" });
    const pair = { agent_id: agentId, function_id: fn.id };
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, "POST", "/api/v1/functions/assign", { token, body: pair });
      expect(res.json()).toEqual({ message: "Function assigned." });
    }
    const listed = await call(t, "GET", `/api/v1/functions/agent/${agentId}`, { token });
    expect(listed.json<{ id: string }[]>().map((f) => f.id)).toEqual([fn.id]);
    const un = await call(t, "POST", "/api/v1/functions/unassign", { token, body: pair });
    expect(un.json()).toEqual({ message: "Function unassigned." });
    expect((await call(t, "GET", `/api/v1/functions/agent/${agentId}`, { token })).json()).toEqual([]);
    const bad = await call(t, "POST", "/api/v1/functions/assign", {
      token,
      body: { agent_id: "nope", function_id: fn.id },
    });
    expect(bad.statusCode).toBe(422);
  });

  it("drops the assignment when the assistant is deleted", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const agentId = await insertAgent(workspaceId);
    const fn = await createFn(token, { name: "cascade_fn" });
    await call(t, "POST", "/api/v1/functions/assign", { token, body: { agent_id: agentId, function_id: fn.id } });
    await t.ctx.db.delete(agents).where(eq(agents.id, agentId));
    expect((await call(t, "GET", `/api/v1/functions/${fn.id}`, { token })).statusCode).toBe(200);
  });
});

describe("testing a function's webhook", () => {
  it("POSTs the arguments signed with the secret", async () => {
    const { token } = await signedInUser(t);
    const fn = await createFn(token, { secret: "whsec_test", headers: { "X-Api-Key": "abc" } });
    const res = await call(t, "POST", `/api/v1/functions/${fn.id}/test`, {
      token,
      body: { arguments: { city: "Oslo" } },
    });
    const result = res.json<{ ok: boolean; status: number; duration_ms: number; body: string }>();
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(result.body)).toEqual({ weather: "sunny", got: { city: "Oslo" } });
    const req = hook.received.at(-1);
    expect(req?.method).toBe("POST");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.headers["x-api-key"]).toBe("abc");
    const timestamp = String(req?.headers["x-parley-timestamp"]);
    const expected = createHmac("sha256", "whsec_test").update(`${timestamp}.${req?.body}`).digest("hex");
    expect(req?.headers["x-parley-signature"]).toBe(`sha256=${expected}`);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it("sends GET arguments in the query, unsigned without a secret", async () => {
    const { token } = await signedInUser(t);
    const fn = await createFn(token, { method: "GET", name: "lookup" });
    await call(t, "POST", `/api/v1/functions/${fn.id}/test`, { token, body: { arguments: { city: "Rome", n: 2 } } });
    const req = hook.received.at(-1);
    expect(req?.url).toBe("/weather?city=Rome&n=2");
    expect(req?.headers["x-parley-signature"]).toBeUndefined();
  });

  it("reports failures, truncation and timeouts", async () => {
    const { token } = await signedInUser(t);
    const failing = await createFn(token, { name: "failing", url: `${hookUrl}/fail` });
    const failed = await call(t, "POST", `/api/v1/functions/${failing.id}/test`, { token, body: {} });
    expect(failed.json()).toMatchObject({
      ok: false,
      status: 500,
      body: "boom",
      error: "The function answered with HTTP 500.",
    });

    const big = await createFn(token, { name: "big", url: `${hookUrl}/big` });
    const bigRes = await call(t, "POST", `/api/v1/functions/${big.id}/test`, { token, body: {} });
    expect(bigRes.json<{ body: string }>().body.length).toBe(64 * 1024);

    const slow = await createFn(token, { name: "slow", url: `${hookUrl}/slow`, timeout: 1 });
    const slowRes = await call(t, "POST", `/api/v1/functions/${slow.id}/test`, { token, body: {} });
    expect(slowRes.json()).toMatchObject({
      ok: false,
      status: 0,
      error: "The function did not answer within 1 seconds.",
    });
  });

  // Starts a server of its own: on a loaded machine that alone can take most of the default 30 s.
  it("refuses a webhook on a private address without the allow-list", { timeout: 120_000 }, async () => {
    const strict = await createTestApp();
    try {
      const { token } = await signedInUser(strict);
      const res = await call(strict, "POST", "/api/v1/functions", {
        token,
        body: body({ url: "http://10.0.0.1/hook" }),
      });
      const id = res.json<{ id: string }>().id;
      const tested = await call(strict, "POST", `/api/v1/functions/${id}/test`, { token, body: { arguments: {} } });
      expect(tested.json()).toMatchObject({
        ok: false,
        status: 0,
        error: "Refusing to connect to 10.0.0.1: private address. Set PARLEY_ALLOWED_PRIVATE_HOSTS to allow it.",
      });
    } finally {
      await strict.close();
    }
  });
});
