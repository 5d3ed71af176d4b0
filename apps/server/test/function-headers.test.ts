import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { functions } from "../src/modules/functions/schema.ts";
import { sealPlainFunctionHeaders } from "../src/modules/functions/service.ts";
import { call, createTestApp, signedInUser, useTestApp } from "./harness.ts";
import { useSavedAndOtherHost } from "./support/recording-host.ts";
import { signedInMember } from "./support/workspace-members.ts";

/** Issue 10 items 3 and 4: function headers sealed at rest, masked, and sent only to their host. */

const API_KEY = "fn-header-api-key-0123456789";

/** The host a function was saved with, and a host a user points its URL at afterwards. */
const { saved, other } = useSavedAndOtherHost({});
const t = useTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

interface FunctionJson {
  id: string;
  headers: Record<string, string>;
}

async function createWithHeaders(token: string, name: string): Promise<FunctionJson> {
  const res = await call(t, "POST", "/api/v1/functions", {
    token,
    body: { name, description: "Looks things up", url: `${saved.url}/hook`, headers: { "X-Api-Key": API_KEY } },
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

    const { token } = await signedInMember(t, owner.workspaceId);
    for (const url of ["/api/v1/functions", `/api/v1/functions/${fn.id}`]) {
      const res = await call(t, "GET", url, { token });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(API_KEY);
      expect(res.body).toContain("fn-…6789");
    }

    expect((await runTest(token, fn.id)).json()).toMatchObject({ ok: true });
    expect(saved.seen.at(-1)?.headers["x-api-key"]).toBe(API_KEY);
  });

  it("keep a value sent back masked, and take a new one", async () => {
    const { token } = await signedInUser(t);
    const fn = await createWithHeaders(token, "masked_back_fn");
    const patch = (body: Record<string, unknown>) => call(t, "PATCH", `/api/v1/functions/${fn.id}`, { token, body });
    const kept = await patch({ headers: { "X-Api-Key": "fn-…6789", "X-Trace": "on" }, timeout: 20 });
    expect(kept.statusCode, kept.body).toBe(200);
    await runTest(token, fn.id);
    expect(saved.seen.at(-1)?.headers).toMatchObject({ "x-api-key": API_KEY, "x-trace": "on" });

    await patch({ headers: { "X-Api-Key": "another-key-abcdefghijklmnop" } });
    await runTest(token, fn.id);
    expect(saved.seen.at(-1)?.headers["x-api-key"]).toBe("another-key-abcdefghijklmnop");
    expect(saved.seen.at(-1)?.headers["x-trace"]).toBeUndefined();
  });

  it("must be typed again when the URL moves to another host", async () => {
    const { token } = await signedInUser(t);
    const fn = await createWithHeaders(token, "moved_fn");
    const patch = (body: Record<string, unknown>) => call(t, "PATCH", `/api/v1/functions/${fn.id}`, { token, body });
    const again = {
      detail: "Enter the header values again: saved header values are only sent to the URL they were saved with.",
    };
    for (const body of [{ url: `${other.url}/steal` }, { url: `${other.url}/steal`, headers: fn.headers }]) {
      const res = await patch(body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual(again);
    }
    await runTest(token, fn.id);
    expect(other.seen).toEqual([]);
    expect(saved.seen.at(-1)?.headers["x-api-key"]).toBe(API_KEY);

    // Another path on the same host keeps them; a value typed again goes with the new host.
    expect((await patch({ url: `${saved.url}/other-path` })).statusCode).toBe(200);
    expect(
      (await patch({ url: `${other.url}/hook`, headers: { "X-Api-Key": "key-for-the-other-host-000" } })).statusCode,
    ).toBe(200);
    await runTest(token, fn.id);
    expect(other.seen.at(-1)?.headers["x-api-key"]).toBe("key-for-the-other-host-000");
    // A function without headers moves freely.
    expect((await patch({ url: `${saved.url}/hook`, headers: {} })).statusCode).toBe(200);
    expect((await patch({ url: `${other.url}/hook` })).statusCode).toBe(200);
  });

  it("stored in the clear before migration 0009 are sealed at start-up and still work", async () => {
    // A database of its own: the table goes back to how it was before 0009, with a plain row.
    const old = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
    try {
      const { token, workspaceId } = await signedInUser(old);
      await old.ctx.db.execute(sql`alter table functions alter column headers type jsonb using headers::jsonb`);
      await old.ctx.db.execute(sql`
        insert into functions (workspace_id, name, description, parameters, url, method, headers, timeout)
        values (${workspaceId}, 'legacy_fn', 'Old', '{"type":"object"}'::jsonb, ${`${saved.url}/legacy`}, 'POST',
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
      expect(saved.seen.at(-1)?.headers["x-api-key"]).toBe(API_KEY);
    } finally {
      await old.close();
    }
  });
});
