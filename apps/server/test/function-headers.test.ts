import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { functions } from "../src/modules/functions/schema.ts";
import { sealPlainFunctionHeaders } from "../src/modules/functions/service.ts";
import { workspaceMembers } from "../src/modules/workspaces/schema.ts";
import { call, createTestApp, login, seedUser, signedInUser, type TestApp } from "./harness.ts";

/** Issue 10 items 3 and 4: function headers sealed at rest, masked, and sent only to their host. */

const API_KEY = "fn-header-api-key-0123456789";

function recordingServer(seen: IncomingMessage["headers"][]): Server {
  return createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.setHeader("content-type", "application/json");
    res.end("{}");
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let t: TestApp;
const savedSeen: IncomingMessage["headers"][] = [];
const otherSeen: IncomingMessage["headers"][] = [];
const saved = recordingServer(savedSeen);
const other = recordingServer(otherSeen);
let savedUrl = "";
let otherUrl = "";

beforeAll(async () => {
  [savedUrl, otherUrl] = await Promise.all([listen(saved), listen(other)]);
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
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

interface FunctionJson {
  id: string;
  headers: Record<string, string>;
}

async function createWithHeaders(token: string, name: string): Promise<FunctionJson> {
  const res = await call(t, "POST", "/api/v1/functions", {
    token,
    body: { name, description: "Looks things up", url: `${savedUrl}/hook`, headers: { "X-Api-Key": API_KEY } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FunctionJson>();
}

const runTest = (token: string, id: string) =>
  call(t, "POST", `/api/v1/functions/${id}/test`, { token, body: { arguments: {} } });

describe("function headers", () => {
  it("are sealed at rest and masked for every member, yet sent in full to the webhook", async () => {
    const owner = await signedInUser(t);
    const fn = await createWithHeaders(owner.token, "sealed_fn");
    expect(fn.headers).toEqual({ "X-Api-Key": "fn-…6789" });

    const [row] = await t.ctx.db.select().from(functions).where(eq(functions.id, fn.id));
    expect(row?.headers).toMatch(/^v1\./);
    expect(row?.headers).not.toContain(API_KEY);

    const member = await seedUser(t);
    await t.ctx.db
      .insert(workspaceMembers)
      .values({ workspaceId: owner.workspaceId, userId: member.user.id, role: "member" });
    await t.ctx.db.delete(workspaceMembers).where(eq(workspaceMembers.workspaceId, member.workspaceId));
    const { token } = await login(t, member.user.username, member.password);
    for (const url of ["/api/v1/functions", `/api/v1/functions/${fn.id}`]) {
      const res = await call(t, "GET", url, { token });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(API_KEY);
      expect(res.body).toContain("fn-…6789");
    }

    expect((await runTest(token, fn.id)).json()).toMatchObject({ ok: true });
    expect(savedSeen.at(-1)?.["x-api-key"]).toBe(API_KEY);
  });

  it("keep a value sent back masked, and take a new one", async () => {
    const { token } = await signedInUser(t);
    const fn = await createWithHeaders(token, "masked_back_fn");
    const patch = (body: Record<string, unknown>) => call(t, "PATCH", `/api/v1/functions/${fn.id}`, { token, body });
    const kept = await patch({ headers: { "X-Api-Key": "fn-…6789", "X-Trace": "on" }, timeout: 20 });
    expect(kept.statusCode, kept.body).toBe(200);
    await runTest(token, fn.id);
    expect(savedSeen.at(-1)).toMatchObject({ "x-api-key": API_KEY, "x-trace": "on" });

    await patch({ headers: { "X-Api-Key": "another-key-abcdefghijklmnop" } });
    await runTest(token, fn.id);
    expect(savedSeen.at(-1)?.["x-api-key"]).toBe("another-key-abcdefghijklmnop");
    expect(savedSeen.at(-1)?.["x-trace"]).toBeUndefined();
  });

  it("must be typed again when the URL moves to another host", async () => {
    const { token } = await signedInUser(t);
    const fn = await createWithHeaders(token, "moved_fn");
    const patch = (body: Record<string, unknown>) => call(t, "PATCH", `/api/v1/functions/${fn.id}`, { token, body });
    const again = {
      detail: "Enter the header values again: saved header values are only sent to the URL they were saved with.",
    };
    for (const body of [{ url: `${otherUrl}/steal` }, { url: `${otherUrl}/steal`, headers: fn.headers }]) {
      const res = await patch(body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual(again);
    }
    await runTest(token, fn.id);
    expect(otherSeen).toEqual([]);
    expect(savedSeen.at(-1)?.["x-api-key"]).toBe(API_KEY);

    // Another path on the same host keeps them; a value typed again goes with the new host.
    expect((await patch({ url: `${savedUrl}/other-path` })).statusCode).toBe(200);
    expect(
      (await patch({ url: `${otherUrl}/hook`, headers: { "X-Api-Key": "key-for-the-other-host-000" } })).statusCode,
    ).toBe(200);
    await runTest(token, fn.id);
    expect(otherSeen.at(-1)?.["x-api-key"]).toBe("key-for-the-other-host-000");
    // A function without headers moves freely.
    expect((await patch({ url: `${savedUrl}/hook`, headers: {} })).statusCode).toBe(200);
    expect((await patch({ url: `${otherUrl}/hook` })).statusCode).toBe(200);
  });

  it("stored in the clear before migration 0009 are sealed at start-up and still work", async () => {
    // A database of its own: the table goes back to how it was before 0009, with a plain row.
    const old = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
    try {
      const { token, workspaceId } = await signedInUser(old);
      await old.ctx.db.execute(sql`alter table functions alter column headers type jsonb using headers::jsonb`);
      await old.ctx.db.execute(sql`
        insert into functions (workspace_id, name, description, parameters, url, method, headers, timeout)
        values (${workspaceId}, 'legacy_fn', 'Old', '{"type":"object"}'::jsonb, ${`${savedUrl}/legacy`}, 'POST',
                ${JSON.stringify({ "X-Api-Key": API_KEY })}::jsonb, 10)`);
      const migration = path.resolve(import.meta.dirname, "../drizzle/0009_function_headers_sealed.sql");
      await old.ctx.db.execute(sql.raw(readFileSync(migration, "utf8")));

      expect(await sealPlainFunctionHeaders(old.ctx)).toBe(1);
      expect(await sealPlainFunctionHeaders(old.ctx)).toBe(0);
      const [row] = await old.ctx.db.select().from(functions).where(eq(functions.name, "legacy_fn"));
      expect(row?.headers).toMatch(/^v1\./);
      expect(row?.headers).not.toContain(API_KEY);
      if (!row) throw new Error("legacy row missing");
      const one = await call(old, "GET", `/api/v1/functions/${row.id}`, { token });
      expect(one.json()).toMatchObject({ headers: { "X-Api-Key": "fn-…6789" } });
      await call(old, "POST", `/api/v1/functions/${row.id}/test`, { token, body: { arguments: {} } });
      expect(savedSeen.at(-1)?.["x-api-key"]).toBe(API_KEY);
    } finally {
      await old.close();
    }
  });
});
