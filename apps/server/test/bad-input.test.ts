import Fastify from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { clientErrorHandler, registerErrorHandling } from "../src/plugins/error-handler.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();
let admin: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  admin = await signedInUser(t, { isSuperuser: true });
});

const form = { "content-type": "application/x-www-form-urlencoded" };

describe("bad input is a 4xx {detail}, never a 500 (issue 10 item 10)", () => {
  it("refuses NUL characters in a form body, a JSON body, a query and a path", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/login",
      payload: "username=a%00b&password=whatever",
      headers: form,
    });
    expect(login.statusCode).toBe(422);
    expect(login.json()).toEqual({
      detail: "Username contains a NUL character, which is not allowed (username).",
      errors: [{ field: "username", message: "Username contains a NUL character, which is not allowed." }],
    });
    const json = await call(t, "POST", "/api/v1/workspaces", { token: admin.token, body: { name: "a\u0000b" } });
    expect(json.statusCode).toBe(422);
    const query = await call(t, "GET", "/api/v1/call-logs?search=a%00b", { token: admin.token });
    expect(query.statusCode).toBe(422);
    const path = await call(t, "GET", "/api/v1/user/a%00b", { token: admin.token });
    expect(path.statusCode).toBe(422);
    const key = await call(t, "POST", "/api/v1/workspaces", { token: admin.token, body: { name: "ok", "x\u0000": 1 } });
    expect(key.statusCode).toBe(422);
  });

  it("refuses JSON nested deeper than 32 levels with a 400", async () => {
    const deep = `${'{"name":"x","a":'.repeat(40)}1${"}".repeat(40)}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/workspaces",
      payload: deep,
      headers: { "content-type": "application/json", authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: "The request is nested more than 32 levels deep." });
  });

  it("answers broken multipart bodies with a 400", async () => {
    const headers = (type: string) => ({ "content-type": type, authorization: `Bearer ${admin.token}` });
    const noBoundary = await t.app.inject({
      method: "POST",
      url: "/api/v1/clones",
      payload: "abc",
      headers: headers("multipart/form-data"),
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().detail).toMatch(/boundary/);
    const cutShort = await t.app.inject({
      method: "POST",
      url: "/api/v1/clones",
      payload:
        '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nabc',
      headers: headers("multipart/form-data; boundary=xx"),
    });
    expect(cutShort.statusCode).toBe(400);
    expect(cutShort.json()).toEqual({ detail: "The uploaded form data is incomplete or malformed. Send it again." });
  });

  it("answers an over-long path part with 414 and a bad percent-encoding with 400, both as {detail}", async () => {
    const long = await call(t, "GET", `/api/v1/agents/${"a".repeat(500)}`, { token: admin.token });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ detail: "The request address is too long." });
    const bad = await call(t, "GET", "/api/v1/agents/%E0%A4%A", { token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: "The request address is not valid." });
  });

  it("answers an address or headers too long for Node's parser as {detail} (414, 431)", async () => {
    const app = Fastify({ clientErrorHandler });
    app.get("/", async () => "ok");
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const address = app.server.address();
      if (!address || typeof address === "string") throw new Error("not listening on a port");
      const base = `http://127.0.0.1:${address.port}`;
      const longUrl = await fetch(`${base}/?x=${"a".repeat(70_000)}`);
      expect(longUrl.status).toBe(414);
      expect(await longUrl.json()).toEqual({ detail: "The request address is too long." });
      const longHeader = await fetch(base, { headers: { "x-big": "a".repeat(70_000) } });
      expect(longHeader.status).toBe(431);
      expect(await longHeader.json()).toEqual({ detail: "The request address or headers are too long." });
    } finally {
      await app.close();
    }
  });

  it("answers racing creates of the same unique name with 409, not 500", async () => {
    const body = { email: "race@example.com", username: "racer", name: "Racer", password: "correct horse battery" };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(t, "POST", "/api/v1/user", { token: admin.token, body })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().detail).toEqual(expect.any(String));
  });

  it("maps a database unique violation and a data exception to 409 and 422", async () => {
    const app = Fastify();
    registerErrorHandling(app);
    const driverError = (code: string) => Object.assign(new Error("driver"), { severity: "ERROR", code });
    app.get("/unique", async () => {
      throw new Error("Failed query", { cause: driverError("23505") });
    });
    app.get("/value", async () => {
      throw driverError("22001");
    });
    expect((await app.inject("/unique")).statusCode).toBe(409);
    expect((await app.inject("/unique")).json()).toEqual({ detail: "This already exists. Reload and try again." });
    expect((await app.inject("/value")).statusCode).toBe(422);
  });
});

describe("422 answers give readable sentences and field errors (issue 11 item 3)", () => {
  it("names each field with a sentence and never zod's own wording", async () => {
    const res = await call(t, "POST", "/api/v1/auth/password-reset/confirm", {
      body: { token: "short", new_password: "a" },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors).toEqual([
      { field: "token", message: "Token must be at least 16 characters long." },
      { field: "new_password", message: "Password must be at least 8 characters." },
    ]);
    expect(body.detail).toBe(
      "Token must be at least 16 characters long (token). Password must be at least 8 characters (new_password).",
    );
    expect(body.detail).not.toMatch(/body\.|Too small|expected/);
  });

  it("says a missing or mistyped field in words", async () => {
    const missing = await call(t, "POST", "/api/v1/users/me/password", {
      token: admin.token,
      body: { current_password: admin.password },
    });
    expect(missing.json().errors).toEqual([{ field: "new_password", message: "New password is required." }]);
    const typed = await call(t, "GET", "/api/v1/call-logs?page=abc", { token: admin.token });
    expect(typed.json().errors).toEqual([{ field: "page", message: "Page must be a number." }]);
  });
});
