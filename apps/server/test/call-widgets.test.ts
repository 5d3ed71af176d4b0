import type { AddressInfo } from "node:net";
import path from "node:path";
import { DEFAULT_WIDGET_LIMITS, WIDGET_TEXTS } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWidget } from "../../../packages/widget/build.mjs";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { RealtimeClient } from "./support/realtime-client.ts";

/** Call widgets: the workspace's CRUD, and the public routes an embedding page uses with its key. */

const SHOP = "https://shop.example.com";
const OTHER = "https://evil.example.net";
let t: TestApp;
let wsBase: string;

beforeAll(async () => {
  // The server serves the built script; build it where the server looks (apps/server/dist/widget).
  await buildWidget(path.resolve(import.meta.dirname, "../dist/widget"));
  t = await createTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/realtime`;
}, 60_000);
afterAll(async () => {
  await t.close();
});

interface Widget {
  id: string;
  public_key: string;
  allowed_origins: string[];
  limits: { max_concurrent_calls: number; calls_per_visitor_per_hour: number };
  enabled: boolean;
}

async function newWidget(fields: Record<string, unknown> = {}) {
  const user = await signedInUser(t);
  const agentId = await createAssistant(t, user.token, {});
  const res = await call(t, "POST", "/api/v1/call-widgets", {
    token: user.token,
    body: { name: "Shop", assistant_id: agentId, allowed_origins: [SHOP], ...fields },
  });
  expect(res.statusCode).toBe(201);
  return { user, agentId, widget: res.json<Widget>() };
}

/** A request from a page (its Origin header) and a visitor (its address). */
function fromPage(method: "GET" | "POST" | "OPTIONS", url: string, origin?: string, ip = "203.0.113.7") {
  return t.app.inject({ method, url, remoteAddress: ip, headers: origin ? { origin } : {} });
}

describe("managing call widgets", () => {
  it("creates a widget with a pw_ key and the default appearance and limits, lists, changes and deletes it", async () => {
    const { user, widget } = await newWidget({ allowed_origins: [`${SHOP}/`, "http://localhost:8080"] });
    expect(widget.public_key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
    expect(widget.allowed_origins).toEqual([SHOP, "http://localhost:8080"]);
    expect(widget.limits).toEqual(DEFAULT_WIDGET_LIMITS);
    const list = await call(t, "GET", "/api/v1/call-widgets", { token: user.token });
    expect(list.json<{ data: Widget[] }>().data.map((w) => w.id)).toEqual([widget.id]);

    const changed = await call(t, "PATCH", `/api/v1/call-widgets/${widget.id}`, {
      token: user.token,
      body: { enabled: false, limits: { max_concurrent_calls: 2, calls_per_visitor_per_hour: 3 } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Widget>()).toMatchObject({ enabled: false, limits: { max_concurrent_calls: 2 } });

    const removed = await call(t, "DELETE", `/api/v1/call-widgets/${widget.id}`, { token: user.token });
    expect(removed.statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/call-widgets/${widget.id}`, { token: user.token })).statusCode).toBe(404);
  });

  it("refuses an origin with a path or another scheme", async () => {
    const { user, widget } = await newWidget();
    for (const origin of ["https://shop.example.com/checkout", "ftp://shop.example.com", "shop.example.com"]) {
      const res = await call(t, "PATCH", `/api/v1/call-widgets/${widget.id}`, {
        token: user.token,
        body: { allowed_origins: [origin] },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ detail: string }>().detail).toContain("allowed_origins");
    }
  });

  it("rotating the key retires the old one at once", async () => {
    const { user, widget } = await newWidget();
    const rotated = await call(t, "POST", `/api/v1/call-widgets/${widget.id}/rotate-key`, { token: user.token });
    const fresh = rotated.json<Widget>().public_key;
    expect(fresh).not.toBe(widget.public_key);
    expect((await fromPage("GET", `/api/v1/widget/${widget.public_key}`, SHOP)).statusCode).toBe(404);
    expect((await fromPage("GET", `/api/v1/widget/${fresh}`, SHOP)).statusCode).toBe(200);
  });

  it("keeps each workspace's widgets to itself: another workspace gets 404 and cannot borrow an assistant", async () => {
    const { agentId, widget } = await newWidget();
    const stranger = await signedInUser(t);
    for (const [method, url] of [
      ["GET", `/api/v1/call-widgets/${widget.id}`],
      ["PATCH", `/api/v1/call-widgets/${widget.id}`],
      ["DELETE", `/api/v1/call-widgets/${widget.id}`],
      ["POST", `/api/v1/call-widgets/${widget.id}/rotate-key`],
    ] as const) {
      const res = await call(t, method, url, {
        token: stranger.token,
        body: method === "PATCH" ? { name: "x" } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await call(t, "GET", "/api/v1/call-widgets", { token: stranger.token });
    expect(list.json<{ data: Widget[] }>().data).toEqual([]);
    const borrowed = await call(t, "POST", "/api/v1/call-widgets", {
      token: stranger.token,
      body: { name: "Borrowed", assistant_id: agentId },
    });
    expect(borrowed.statusCode).toBe(404);
  });

  it("needs a signed-in user", async () => {
    expect((await call(t, "GET", "/api/v1/call-widgets")).statusCode).toBe(401);
  });
});

describe("the public routes of the embed script", () => {
  it("serves the script compressed, cacheable and loadable from any site", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/widget/embed.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(res.headers["cache-control"]).toMatch(/max-age=300/);
    const again = await t.app.inject({
      method: "GET",
      url: "/api/v1/widget/embed.js",
      headers: { "if-none-match": String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("gives the appearance to an allowed origin only, with CORS for that origin", async () => {
    const { widget } = await newWidget();
    const allowed = await fromPage("GET", `/api/v1/widget/${widget.public_key}`, SHOP);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers["access-control-allow-origin"]).toBe(SHOP);
    expect(allowed.json()).toMatchObject({ assistant_name: "Front desk", appearance: { position: "bottom-right" } });

    for (const origin of [OTHER, undefined, "https://shop.example.com.evil.net"]) {
      const refused = await fromPage("GET", `/api/v1/widget/${widget.public_key}`, origin);
      expect(refused.statusCode, String(origin)).toBe(403);
      expect(refused.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.originRefused);
      expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    }
    expect((await fromPage("GET", "/api/v1/widget/pw_unknownunknownunknown", SHOP)).statusCode).toBe(404);
  });

  it("refuses every site when no origin is allowed, but Parley's own pages (the editor preview) still work", async () => {
    const { widget } = await newWidget({ allowed_origins: [], enabled: false });
    expect((await fromPage("GET", `/api/v1/widget/${widget.public_key}`, SHOP)).statusCode).toBe(404);
    const preview = await fromPage("GET", `/api/v1/widget/${widget.public_key}`, new URL(t.config.publicUrl).origin);
    expect(preview.statusCode).toBe(200);
    // A browser sends no Origin on a same-origin GET; its Sec-Fetch-Site says where it comes from.
    const sameOrigin = await t.app.inject({
      method: "GET",
      url: `/api/v1/widget/${widget.public_key}`,
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.statusCode).toBe(200);
    const crossSite = await t.app.inject({
      method: "GET",
      url: `/api/v1/widget/${widget.public_key}`,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.statusCode).toBe(404);
  });

  it("answers a preflight for an allowed origin and refuses one for another", async () => {
    const { widget } = await newWidget();
    const ok = await fromPage("OPTIONS", `/api/v1/widget/${widget.public_key}/calls`, SHOP);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe(SHOP);
    expect(ok.headers["access-control-allow-methods"]).toBe("POST");
    const refused = await fromPage("OPTIONS", `/api/v1/widget/${widget.public_key}/calls`, OTHER);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("starts a call on channel widget with the page origin, whose token opens the socket from that page only", async () => {
    const { user, widget } = await newWidget();
    const refused = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, OTHER);
    expect(refused.statusCode).toBe(403);

    const started = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP);
    expect(started.statusCode).toBe(201);
    expect(started.headers["access-control-allow-origin"]).toBe(SHOP);
    const body = started.json<{ call_id: string; access_token: string; url: string }>();
    expect(body.url).toBe("/api/v1/realtime");

    const log = await call(t, "GET", `/api/v1/call-logs/${body.call_id}`, { token: user.token });
    expect(log.json()).toMatchObject({ channel: "widget", origin: SHOP, direction: "inbound" });

    // Another site that got hold of the token cannot open the call with it.
    const thief = await RealtimeClient.connect(`${wsBase}?token=${encodeURIComponent(body.access_token)}`, {
      origin: OTHER,
    });
    expect((await thief.closed).code).toBe(4403);
    // (The refused attempt did not use the token up: the origin is checked before the token is claimed.)
    const visitor = await RealtimeClient.connect(`${wsBase}?token=${encodeURIComponent(body.access_token)}`, {
      origin: SHOP,
    });
    await visitor.waitFor("ready");
    visitor.send({ type: "hangup" });
    await visitor.closed;
  }, 60_000);

  it("holds the widget's concurrent calls: a second call waits until the first has ended", async () => {
    const { widget } = await newWidget({ limits: { max_concurrent_calls: 1, calls_per_visitor_per_hour: 20 } });
    const first = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "198.51.100.1");
    expect(first.statusCode).toBe(201);
    const second = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "198.51.100.2");
    expect(second.statusCode).toBe(429);
    expect(second.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(1));
    // The refusal is readable by the page, so the widget can say why.
    expect(second.headers["access-control-allow-origin"]).toBe(SHOP);

    const { access_token: token } = first.json<{ access_token: string }>();
    const visitor = await RealtimeClient.connect(`${wsBase}?token=${encodeURIComponent(token)}`, { origin: SHOP });
    await visitor.waitFor("ready");
    visitor.send({ type: "hangup" });
    await visitor.closed;
    // Past the moments a just-opened room counts regardless of the live rooms, the slot is free again.
    t.clock.advance(31);
    await expect
      .poll(
        async () =>
          (await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "198.51.100.3")).statusCode,
        {
          timeout: 20_000,
        },
      )
      .toBe(201);
  }, 60_000);

  it("limits calls per visitor per hour, counting each visitor apart", async () => {
    const { widget } = await newWidget({ limits: { max_concurrent_calls: 10, calls_per_visitor_per_hour: 2 } });
    const start = (ip: string) => fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, ip);
    expect((await start("192.0.2.10")).statusCode).toBe(201);
    expect((await start("192.0.2.10")).statusCode).toBe(201);
    const third = await start("192.0.2.10");
    expect(third.statusCode).toBe(429);
    expect(third.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.visitorLimit(2));
    expect((await start("192.0.2.11")).statusCode).toBe(201);
    t.clock.advance(3601);
    expect((await start("192.0.2.10")).statusCode).toBe(201);
  });

  it("counts widget calls against the workspace's concurrency like any call", async () => {
    // A widget's own number may reach the workspace's (its default share is half).
    const { user, widget } = await newWidget({ limits: { max_concurrent_calls: 5, calls_per_visitor_per_hour: 10 } });
    const workspace = await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
      token: user.token,
      body: { concurrency_limit: 1 },
    });
    expect(workspace.statusCode).toBe(200);
    expect((await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "192.0.2.20")).statusCode).toBe(
      201,
    );
    const full = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "192.0.2.21");
    expect(full.statusCode).toBe(429);
    expect(full.json<{ detail: string }>().detail).toMatch(/maximum of 1 concurrent calls/);
    // The refused start does not count against the visitor.
    const again = await fromPage("POST", `/api/v1/widget/${widget.public_key}/calls`, SHOP, "192.0.2.21");
    expect(again.statusCode).toBe(429);
    expect(again.json<{ detail: string }>().detail).toMatch(/maximum of 1 concurrent calls/);
  });
});
