import { randomUUID } from "node:crypto";
import { ROOM_TOKEN_TTL_SECONDS, WIDGET_TEXTS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { widgetCalls } from "../src/modules/call-widgets/schema.ts";
import { insertLiveRoom } from "../src/modules/calls/live-rooms-across-workspaces.ts";
import { call, signedInUser, type TestUser, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { until } from "./support/until.ts";

/**
 * Issue 25, items 8 and 13a: anonymous widget starts that nobody joins (a non-browser client forging
 * an allowed Origin) give their call slots back when their room token expires, a widget holds at
 * most half of the workspace's slots unless told otherwise, and allowed origins are plain origins.
 */

const t = useTestApp();
const SHOP = "https://shop.example.com";
/** Past the room token's life and the few seconds a socket admitted at its last instant may take. */
const PAST_TOKEN_LIFE_S = ROOM_TOKEN_TTL_SECONDS + 5;

interface Widget {
  id: string;
  public_key: string;
  limits: { max_concurrent_calls: number | null; calls_per_visitor_per_hour: number };
}

/** A user whose workspace runs `workspaceLimit` calls at once, with one assistant. */
async function workspaceWith(workspaceLimit: number) {
  const user = await signedInUser(t);
  const res = await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
    token: user.token,
    body: { concurrency_limit: workspaceLimit },
  });
  expect(res.statusCode).toBe(200);
  const agentId = await createAssistant(t, user.token, {});
  return { user, agentId };
}

async function newWidget(user: TestUser & { token: string }, agentId: string, fields: Record<string, unknown> = {}) {
  const res = await call(t, "POST", "/api/v1/call-widgets", {
    token: user.token,
    body: { name: "Shop", assistant_id: agentId, allowed_origins: [SHOP], ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Widget>();
}

/** What a script (not a browser) sends: the allowed Origin, forged, from its own address. */
let visitor = 0;
function forgedStart(widget: Widget) {
  visitor += 1;
  return t.app.inject({
    method: "POST",
    url: `/api/v1/widget/${widget.public_key}/calls`,
    remoteAddress: `198.18.0.${visitor % 250}`,
    headers: { origin: SHOP },
  });
}

/**
 * A room of `widget` that another live process (fresh heartbeat) holds, started past its token's
 * life ago: joined by its caller, or not.
 */
async function otherProcessRoom(user: TestUser, agentId: string, widget: Widget, joined: boolean) {
  const createdAt = new Date(t.clock.now().getTime() - PAST_TOKEN_LIFE_S * 1000);
  const callId = randomUUID();
  const participants = joined
    ? [{ identity: "visitor-1", name: "Website visitor", kind: "caller" as const, joined_at: createdAt.toISOString() }]
    : [];
  const room = { workspaceId: user.workspaceId, agentId, agentName: "Front desk", callId, channel: "widget" as const };
  await insertLiveRoom(
    t.ctx.db,
    { ...room, name: `call-${callId.slice(0, 12)}`, createdAt, participants, variables: {} },
    { ownerId: "another-process", nodeId: null },
    t.clock.now(),
  );
  await t.ctx.db
    .insert(widgetCalls)
    .values({ workspaceId: user.workspaceId, widgetId: widget.id, callId, visitorKey: "far", createdAt });
}

describe("widget rooms nobody joins", () => {
  it("give the workspace's and the widget's slots back when their room token expires", async () => {
    const { user, agentId } = await workspaceWith(2);
    const widget = await newWidget(user, agentId, {
      limits: { max_concurrent_calls: 2, calls_per_visitor_per_hour: 10 },
    });
    expect((await forgedStart(widget)).statusCode).toBe(201);
    expect((await forgedStart(widget)).statusCode).toBe(201);
    const held = await forgedStart(widget);
    expect(held.statusCode).toBe(429);
    expect(held.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(2));
    // The browser's own call is refused too: the workspace's slots are all taken.
    const web = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: user.token });
    expect(web.statusCode).toBe(429);

    // Nobody opened the socket and the tokens have expired: the rooms are gone, their slots free.
    t.clock.advance(PAST_TOKEN_LIFE_S);
    expect((await forgedStart(widget)).statusCode).toBe(201);
    expect((await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: user.token })).statusCode).toBe(201);
    const logs = await call(t, "GET", "/api/v1/call-logs?channel=widget", { token: user.token });
    const statuses = logs.json<{ data: { status: string }[] }>().data.map((log) => log.status);
    expect(statuses.filter((status) => status === "failed")).toHaveLength(2);
  });

  it("expires at the token's expiry on the wall clock, not two minutes later", async () => {
    const { user, agentId } = await workspaceWith(5);
    const widget = await newWidget(user, agentId);
    const startedAt = Date.now();
    const started = await forgedStart(widget);
    expect(started.statusCode).toBe(201);
    const { room_name: room } = started.json<{ room_name: string }>();
    expect(t.ctx.calls.rooms.get(room)).toBeDefined();
    await until(
      async () => t.ctx.calls.rooms.get(room),
      (held) => held === undefined,
      "the unjoined widget room to expire",
      110_000,
    );
    const seconds = (Date.now() - startedAt) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(ROOM_TOKEN_TTL_SECONDS);
    // Before this fix it was 120 s; a busy machine may add a little to the token's 60 s.
    expect(seconds).toBeLessThan(ROOM_TOKEN_TTL_SECONDS + 15);
  }, 130_000);

  it("counts another process's room as free once its token has expired unjoined, and a joined one as held", async () => {
    const { user, agentId } = await workspaceWith(10);
    const widget = await newWidget(user, agentId, {
      limits: { max_concurrent_calls: 1, calls_per_visitor_per_hour: 10 },
    });
    await otherProcessRoom(user, agentId, widget, false);
    const started = await forgedStart(widget);
    expect(started.statusCode, started.body).toBe(201);

    const other = await newWidget(user, agentId, {
      limits: { max_concurrent_calls: 1, calls_per_visitor_per_hour: 10 },
    });
    await otherProcessRoom(user, agentId, other, true);
    const busy = await forgedStart(other);
    expect(busy.statusCode).toBe(429);
    expect(busy.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(1));
  });
});

describe("a widget's share of the workspace's calls", () => {
  it("is half the workspace's concurrent calls by default, so a widget cannot hold them all", async () => {
    const { user, agentId } = await workspaceWith(5);
    const widget = await newWidget(user, agentId);
    expect(widget.limits.max_concurrent_calls).toBeNull();
    expect((await forgedStart(widget)).statusCode).toBe(201);
    expect((await forgedStart(widget)).statusCode).toBe(201);
    const third = await forgedStart(widget);
    expect(third.statusCode).toBe(429);
    expect(third.json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(2));
    // The workspace still has room for its own calls.
    expect((await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: user.token })).statusCode).toBe(201);
  });

  it("is at least one call, and a widget given its own number keeps it", async () => {
    const small = await workspaceWith(1);
    const one = await newWidget(small.user, small.agentId);
    expect((await forgedStart(one)).statusCode).toBe(201);
    expect((await forgedStart(one)).json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(1));

    const big = await workspaceWith(4);
    const own = await newWidget(big.user, big.agentId, {
      limits: { max_concurrent_calls: 3, calls_per_visitor_per_hour: 10 },
    });
    expect(own.limits.max_concurrent_calls).toBe(3);
    for (let i = 0; i < 3; i += 1) expect((await forgedStart(own)).statusCode).toBe(201);
    expect((await forgedStart(own)).json<{ detail: string }>().detail).toBe(WIDGET_TEXTS.widgetBusy(3));
  });

  it("goes back to the default when the limit is cleared, and refuses a limit that is not a whole number from 1", async () => {
    const { user, agentId } = await workspaceWith(6);
    const widget = await newWidget(user, agentId, {
      limits: { max_concurrent_calls: 6, calls_per_visitor_per_hour: 10 },
    });
    const patch = (limits: unknown) =>
      call(t, "PATCH", `/api/v1/call-widgets/${widget.id}`, { token: user.token, body: { limits } });
    const cleared = await patch({ max_concurrent_calls: null, calls_per_visitor_per_hour: 10 });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<Widget>().limits.max_concurrent_calls).toBeNull();
    for (const bad of [0, -1, 2.5, "3"]) {
      const res = await patch({ max_concurrent_calls: bad, calls_per_visitor_per_hour: 10 });
      expect(res.statusCode, String(bad)).toBe(422);
      expect(res.json<{ detail: string }>().detail).toContain("max_concurrent_calls");
    }
  });
});

describe("allowed origins", () => {
  const notPlainOrigins = [
    "https://*.example.com",
    "*",
    "https://*",
    "*.example.com",
    "https://shop.*.com",
    "https://shop..example.com",
    "https://-shop.example.com",
    "https://shop_1.example.com",
    "https://shop.example.com:99999",
  ];

  it("refuses a wildcard with a field error that says so, on create and on change", async () => {
    const { user, agentId } = await workspaceWith(5);
    const created = await call(t, "POST", "/api/v1/call-widgets", {
      token: user.token,
      body: { name: "Shop", assistant_id: agentId, allowed_origins: ["https://*.example.com"] },
    });
    expect(created.statusCode).toBe(422);
    const detail = created.json<{ detail: string }>().detail;
    expect(detail).toContain("allowed_origins");
    expect(detail).toMatch(/wildcard/i);
    const widget = await newWidget(user, agentId);
    const changed = await call(t, "PATCH", `/api/v1/call-widgets/${widget.id}`, {
      token: user.token,
      body: { allowed_origins: [SHOP, "https://*.example.com"] },
    });
    expect(changed.statusCode).toBe(422);
    expect(changed.json<{ detail: string }>().detail).toMatch(/wildcard/i);
  });

  it("refuses anything that is not scheme://host[:port]", async () => {
    const { user, agentId } = await workspaceWith(5);
    const widget = await newWidget(user, agentId);
    for (const origin of notPlainOrigins) {
      const res = await call(t, "PATCH", `/api/v1/call-widgets/${widget.id}`, {
        token: user.token,
        body: { allowed_origins: [origin] },
      });
      expect(res.statusCode, origin).toBe(422);
      expect(res.json<{ detail: string }>().detail, origin).toContain("allowed_origins");
    }
    const kept = await call(t, "GET", `/api/v1/call-widgets/${widget.id}`, { token: user.token });
    expect(kept.json<{ allowed_origins: string[] }>().allowed_origins).toEqual([SHOP]);
  });

  it("keeps plain origins, with a port, an IP address, or typed in capitals", async () => {
    const { user, agentId } = await workspaceWith(5);
    const widget = await newWidget(user, agentId, {
      allowed_origins: [
        "https://Shop.Example.com/",
        "http://localhost:8080",
        "http://192.0.2.4:3000",
        "http://[::1]:8080",
      ],
    });
    const res = await call(t, "GET", `/api/v1/call-widgets/${widget.id}`, { token: user.token });
    expect(res.json<{ allowed_origins: string[] }>().allowed_origins).toEqual([
      SHOP,
      "http://localhost:8080",
      "http://192.0.2.4:3000",
      "http://[::1]:8080",
    ]);
  });
});
