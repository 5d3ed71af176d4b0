import { createHmac } from "node:crypto";
import { WEBHOOK_MAX_ATTEMPTS, type WebhookDelivery } from "@parley/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { type ReceivedRequest, startReceiver } from "../../../test/support/loopback.ts";
import { jobs } from "../../jobs/schema.ts";
import { createCallLog } from "../call-logs/service.ts";
import { WEBHOOK_QUEUE } from "./deliveries.ts";
import { webhookEndpoints } from "./schema.ts";

type Signed = Awaited<ReturnType<typeof signedInUser>>;

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let base = "";
let owner: Signed;

beforeAll(async () => {
  receiver = await startReceiver((request, res) => {
    if (request.url.startsWith("/fail")) return res.writeHead(500).end("down");
    res.writeHead(200).end("ok");
  });
  base = receiver.origin;
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  owner = await signedInUser(t);
  // Load-proof: opening a database and running every migration is slow on a busy machine.
}, 240_000);

afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function newEndpoint(path: string, events: string[], user = owner) {
  const res = await call(t, "POST", "/api/v1/webhooks", { token: user.token, body: { url: `${base}${path}`, events } });
  if (res.statusCode !== 201) throw new Error(`create endpoint failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; secret: string; url: string }>();
}

async function deliveries(endpointId: string, user = owner): Promise<WebhookDelivery[]> {
  const res = await call(t, "GET", `/api/v1/webhooks/${endpointId}/deliveries`, { token: user.token });
  return res.json<{ items: WebhookDelivery[] }>().items;
}

const receivedAt = (path: string) => receiver.received.filter((r) => r.url === path);

/** The retry is due later; the test moves it to now instead of waiting minutes. */
async function runRetriesNow() {
  await t.ctx.db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(and(eq(jobs.queue, WEBHOOK_QUEUE), eq(jobs.status, "queued")));
  t.app.jobs.wake();
}

function verify(secret: string, r: ReceivedRequest): boolean {
  const timestamp = String(r.headers["x-parley-timestamp"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${r.body}`).digest("hex")}`;
  return r.headers["x-parley-signature"] === expected;
}

/** A web call to the assistant, logged and announced as ended, as a live call does when it hangs up. */
async function announceEndedCall(agentId: string, agentName: string) {
  const tenant = { workspaceId: owner.workspaceId };
  const log = await createCallLog(t.ctx.db, tenant, { agentId, agentName, channel: "web", direction: "inbound" });
  t.ctx.events.emit("call.ended", {
    workspaceId: owner.workspaceId,
    callId: log.id,
    agentId,
    channel: "web",
    status: "completed",
    durationSeconds: 0,
  });
  return log;
}

describe("webhooks", () => {
  it("delivers a subscribed event, signed over timestamp and body, and logs the delivery", async () => {
    const endpoint = await newEndpoint("/numbers", ["phone_number.updated"]);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row?.secret).not.toContain(endpoint.secret);

    t.ctx.events.emit("phone_number.updated", {
      workspaceId: owner.workspaceId,
      phoneNumberId: "11111111-1111-4111-8111-111111111111",
      action: "created",
    });
    await expect.poll(() => receivedAt("/numbers").length, { timeout: 60_000 }).toBe(1);
    const hit = receivedAt("/numbers")[0] as ReceivedRequest;
    expect(verify(endpoint.secret, hit)).toBe(true);
    expect(verify("whsec_wrong", hit)).toBe(false);
    expect(hit.headers["x-parley-event"]).toBe("phone_number.updated");
    expect(JSON.parse(hit.body)).toMatchObject({
      type: "phone_number.updated",
      workspace_id: owner.workspaceId,
      data: { phone_number_id: "11111111-1111-4111-8111-111111111111", action: "created" },
    });

    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, { timeout: 60_000 }).toBe("succeeded");
    const [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({
      attempts: 1,
      response_status: 200,
      error: null,
      event_type: "phone_number.updated",
    });
    expect(logged?.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(hit.headers["x-parley-delivery"]).toBe(logged?.id);
    // The log holds the request body as the receiver got it, byte for byte once serialised.
    expect(JSON.stringify(logged?.payload)).toBe(hit.body);
  }, 180_000);

  it("sends only subscribed events to enabled endpoints", async () => {
    await newEndpoint("/docs-only", ["document.ready"]);
    const disabled = await newEndpoint("/disabled", ["batch.completed"]);
    await call(t, "PATCH", `/api/v1/webhooks/${disabled.id}`, { token: owner.token, body: { enabled: false } });
    t.ctx.events.emit("batch.completed", { workspaceId: owner.workspaceId, batchCallId: "b1" });
    t.ctx.events.emit("document.ready", {
      workspaceId: owner.workspaceId,
      documentId: "00000000-0000-4000-8000-0000000000d1",
    });
    await expect.poll(() => receivedAt("/docs-only").length, { timeout: 60_000 }).toBe(1);
    expect(JSON.parse(receivedAt("/docs-only")[0]?.body ?? "{}")).toMatchObject({
      type: "document.ready",
      data: { document_id: "00000000-0000-4000-8000-0000000000d1", status: null },
    });
    expect(await deliveries(disabled.id)).toEqual([]);
    expect(receivedAt("/disabled")).toEqual([]);
  }, 180_000);

  it("sends call.ended with the call log and recording link", async () => {
    const endpoint = await newEndpoint("/calls", ["call.ended"]);
    const agent = await call(t, "POST", "/api/v1/agents", { token: owner.token, body: { name: "Desk" } });
    const agentId = agent.json<{ id: string }>().id;
    const log = await announceEndedCall(agentId, "Desk");
    await expect.poll(() => receivedAt("/calls").length, { timeout: 60_000 }).toBe(1);
    const body = JSON.parse(receivedAt("/calls")[0]?.body ?? "{}");
    expect(body.type).toBe("call.ended");
    expect(body.data.call).toMatchObject({ id: log.id, transcript: [] });
    expect(body.data).toHaveProperty("recording_url", null);
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, { timeout: 60_000 }).toBe("succeeded");
    // The delivery log shows the call's whole body, transcript and all, as it was sent.
    expect((await deliveries(endpoint.id))[0]?.payload).toEqual(body);
  }, 180_000);

  it("holds call.ended of an assistant with post-call analysis (the analysis job sends it)", async () => {
    const endpoint = await newEndpoint("/analysed", ["call.ended"]);
    const agent = await call(t, "POST", "/api/v1/agents", {
      token: owner.token,
      body: { name: "Analysed", analysis: { summary: { enabled: true, prompt: "" } } },
    });
    expect(agent.json().analysis.summary.enabled).toBe(true);
    const agentId = agent.json<{ id: string }>().id;
    await announceEndedCall(agentId, "Analysed");
    // The call.ended that arrives was sent by the analysis job: it carries the analysis, final
    // (done, or failed for good since the assistant's model has no key here), never pending.
    await expect.poll(() => receivedAt("/analysed").length, { timeout: 60_000 }).toBe(1);
    const body = JSON.parse(receivedAt("/analysed")[0]?.body ?? "{}");
    expect(body.type).toBe("call.ended");
    expect(["done", "failed"]).toContain(body.data.call.analysis?.status);
    expect(body.data.call.analysis.completed_at).not.toBeNull();
    // And only that one: the call's end itself queued nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedAt("/analysed")).toHaveLength(1);
    expect(await deliveries(endpoint.id)).toHaveLength(1);
  }, 180_000);

  it("retries a failing receiver with backoff until the attempts run out, shown in the log; resend sends again", async () => {
    const endpoint = await newEndpoint("/fail", ["call.started"]);
    const test = await call(t, "POST", `/api/v1/webhooks/${endpoint.id}/test`, { token: owner.token });
    expect(test.statusCode).toBe(202);
    for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      await expect.poll(async () => (await deliveries(endpoint.id))[0]?.attempts, { timeout: 60_000 }).toBe(attempt);
      const [pending] = await deliveries(endpoint.id);
      expect(pending).toMatchObject({ status: "pending", response_status: 500, error: "HTTP 500" });
      expect(new Date(pending?.next_attempt_at ?? 0).getTime()).toBeGreaterThan(Date.now());
      await runRetriesNow();
    }
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, { timeout: 60_000 }).toBe("failed");
    const [failed] = await deliveries(endpoint.id);
    expect(failed).toMatchObject({ attempts: WEBHOOK_MAX_ATTEMPTS, next_attempt_at: null });
    expect(receivedAt("/fail")).toHaveLength(WEBHOOK_MAX_ATTEMPTS);

    await call(t, "PATCH", `/api/v1/webhooks/${endpoint.id}`, { token: owner.token, body: { url: `${base}/fixed` } });
    const resent = await call(t, "POST", `/api/v1/webhooks/${endpoint.id}/deliveries/${failed?.id}/resend`, {
      token: owner.token,
    });
    expect(resent.statusCode).toBe(202);
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, { timeout: 60_000 }).toBe("succeeded");
    const [ok] = await deliveries(endpoint.id);
    expect(ok?.event_id).toBe(failed?.event_id);
    expect(ok?.id).not.toBe(failed?.id);
  }, 180_000);

  it("reveals and rotates the secret; deliveries are signed with the new one", async () => {
    const endpoint = await newEndpoint("/rotate", ["call.started"]);
    const revealed = await call(t, "GET", `/api/v1/webhooks/${endpoint.id}/secret`, { token: owner.token });
    expect(revealed.json().secret).toBe(endpoint.secret);
    const rotated = await call(t, "POST", `/api/v1/webhooks/${endpoint.id}/rotate-secret`, { token: owner.token });
    const secret = rotated.json<{ secret: string }>().secret;
    expect(secret).not.toBe(endpoint.secret);
    await call(t, "POST", `/api/v1/webhooks/${endpoint.id}/test`, { token: owner.token });
    await expect.poll(() => receivedAt("/rotate").length, { timeout: 60_000 }).toBe(1);
    const hit = receivedAt("/rotate")[0] as ReceivedRequest;
    expect(verify(secret, hit)).toBe(true);
    expect(verify(endpoint.secret, hit)).toBe(false);
  }, 180_000);

  it("keeps endpoints and their logs inside the workspace", async () => {
    const endpoint = await newEndpoint("/mine", ["call.started"]);
    const other = await signedInUser(t);
    for (const [method, url] of [
      ["GET", `/api/v1/webhooks/${endpoint.id}`],
      ["GET", `/api/v1/webhooks/${endpoint.id}/secret`],
      ["GET", `/api/v1/webhooks/${endpoint.id}/deliveries`],
      ["POST", `/api/v1/webhooks/${endpoint.id}/test`],
      ["PATCH", `/api/v1/webhooks/${endpoint.id}`],
      ["DELETE", `/api/v1/webhooks/${endpoint.id}`],
    ] as const) {
      const res = await call(t, method, url, {
        token: other.token,
        body: method === "PATCH" ? { enabled: false } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(t, "GET", "/api/v1/webhooks", { token: other.token })).json()).toEqual([]);
    // Another workspace's events do not reach this endpoint.
    t.ctx.events.emit("call.started", { workspaceId: other.workspaceId, callId: "c", agentId: "a", channel: "web" });
    await call(t, "POST", `/api/v1/webhooks/${endpoint.id}/test`, { token: owner.token });
    await expect.poll(() => receivedAt("/mine").length, { timeout: 60_000 }).toBe(1);
    expect((await deliveries(endpoint.id)).map((d) => d.event_type)).toEqual(["test"]);
  }, 180_000);
});

describe("webhooks without the private-address allow-list", () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  }, 240_000);
  afterAll(async () => plain.close());

  it("refuses a private-address URL when saved, and at delivery time", async () => {
    const user = await signedInUser(plain);
    for (const url of [`${base}/x`, "http://10.0.0.8/hook", "http://localhost:9/hook", "http://[::1]/hook"]) {
      const res = await call(plain, "POST", "/api/v1/webhooks", {
        token: user.token,
        body: { url, events: ["call.started"] },
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail).toContain("private or local address");
    }
    // A row that got past the form (the allow-list was changed since) is still refused by the network.
    const [row] = await plain.ctx.db
      .insert(webhookEndpoints)
      .values({
        workspaceId: user.workspaceId,
        url: `${base}/sneaky`,
        events: ["call.started"],
        secret: plain.ctx.secrets.encrypt("whsec_x"),
      })
      .returning();
    const sent = await call(plain, "POST", `/api/v1/webhooks/${row?.id}/test`, { token: user.token });
    expect(sent.statusCode).toBe(202);
    const list = async () =>
      (await call(plain, "GET", `/api/v1/webhooks/${row?.id}/deliveries`, { token: user.token })).json<{
        items: WebhookDelivery[];
      }>().items;
    await expect.poll(async () => (await list())[0]?.status, { timeout: 60_000 }).toBe("failed");
    const [failed] = await list();
    expect(failed?.error).toContain("Refusing to connect to 127.0.0.1");
    expect(failed?.attempts).toBe(1);
    expect(receivedAt("/sneaky")).toEqual([]);
  }, 180_000);
});
