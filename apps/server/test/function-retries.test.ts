import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { invokeFunctionWebhook, type WebhookTarget } from "../src/modules/functions/webhook.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { type ReceivedRequest, startReceiver } from "./support/loopback.ts";

/**
 * Issue 27 item 2: a live call's function call carries an Idempotency-Key, and a failure that may
 * pass (no answer, 429, 5xx) is tried once more with the same key; the function test keeps one try.
 */

const t = useTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

/** A function endpoint that answers its requests with `statuses` in turn (the last one from then on). */
async function endpoint(statuses: number[], headers: Record<string, string> = {}) {
  let n = 0;
  return startReceiver((_request: ReceivedRequest, res) => {
    const status = statuses[Math.min(n, statuses.length - 1)] ?? 200;
    n += 1;
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ attempt: n }));
  });
}

const target = (url: string, timeout = 5): WebhookTarget => ({
  url,
  method: "POST",
  headers: t.ctx.secrets.encrypt("{}"),
  timeout,
  secret: null,
});

/** A port of 127.0.0.1 with nothing listening on it (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a function webhook in a live call", () => {
  it("tries a 503 again once with the same Idempotency-Key and returns the second answer", async () => {
    const fn = await endpoint([503, 200]);
    try {
      const result = await invokeFunctionWebhook(
        t.ctx,
        target(`${fn.origin}/book`),
        { slot: "9am" },
        { idempotencyKey: "call-1:tool-1", retry: true },
      );
      expect(result).toMatchObject({ ok: true, status: 200, body: '{"attempt":2}', attempts: 2 });
      expect(fn.received.map((r) => r.headers["idempotency-key"])).toEqual(["call-1:tool-1", "call-1:tool-1"]);
      expect(fn.received.map((r) => r.body)).toEqual(['{"slot":"9am"}', '{"slot":"9am"}']);
    } finally {
      await fn.close();
    }
  });

  it("tries a 429 again, but neither a 4xx nor a success", async () => {
    const limited = await endpoint([429, 200]);
    const rejected = await endpoint([404]);
    const fine = await endpoint([200]);
    try {
      const options = { idempotencyKey: "k", retry: true };
      expect(await invokeFunctionWebhook(t.ctx, target(limited.origin), {}, options)).toMatchObject({ ok: true });
      expect(limited.received).toHaveLength(2);
      expect(await invokeFunctionWebhook(t.ctx, target(rejected.origin), {}, options)).toMatchObject({
        ok: false,
        status: 404,
        error: "The function answered with HTTP 404.",
      });
      expect(rejected.received).toHaveLength(1);
      await invokeFunctionWebhook(t.ctx, target(fine.origin), {}, options);
      expect(fine.received).toHaveLength(1);
    } finally {
      await Promise.all([limited.close(), rejected.close(), fine.close()]);
    }
  });

  it("does not wait out a Retry-After longer than a turn allows", async () => {
    const fn = await endpoint([429, 200], { "retry-after": "30" });
    try {
      const result = await invokeFunctionWebhook(t.ctx, target(fn.origin), {}, { idempotencyKey: "k", retry: true });
      expect(result).toMatchObject({ ok: false, status: 429 });
      expect(fn.received).toHaveLength(1);
    } finally {
      await fn.close();
    }
  });

  it("tries a refused connection again and says it could not be reached", async () => {
    const port = await closedPort();
    const result = await invokeFunctionWebhook(
      t.ctx,
      target(`http://127.0.0.1:${port}/hook`),
      {},
      { idempotencyKey: "k", retry: true },
    );
    expect(result).toMatchObject({ ok: false, status: 0, attempts: 2, timedOut: false });
    expect(result.error).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  it("stops at the function's timeout without a second try, saying how long it waited", async () => {
    const fn = await startReceiver(() => undefined);
    try {
      const result = await invokeFunctionWebhook(t.ctx, target(fn.origin, 1), {}, { idempotencyKey: "k", retry: true });
      expect(result).toMatchObject({
        ok: false,
        status: 0,
        timedOut: true,
        error: "The function did not answer within 1 seconds.",
      });
      expect(result.attempts).toBeUndefined();
      expect(fn.received).toHaveLength(1);
    } finally {
      await fn.close();
    }
  });

  it("gives up the retry when the call aborts the tool (barge-in, tool timeout)", async () => {
    const fn = await endpoint([503, 200]);
    try {
      const controller = new AbortController();
      const pending = invokeFunctionWebhook(
        t.ctx,
        target(fn.origin),
        {},
        {
          idempotencyKey: "k",
          retry: true,
          signal: controller.signal,
        },
      );
      // Aborted once the first request is in (during its answer or the pause after it): no second request.
      await new Promise<void>((resolve) => {
        const check = () => (fn.received.length > 0 ? resolve() : setTimeout(check, 5));
        check();
      });
      controller.abort();
      expect(await pending).toMatchObject({ ok: false });
      expect(fn.received).toHaveLength(1);
    } finally {
      await fn.close();
    }
  });
});

describe("the function test endpoint", () => {
  it("makes one attempt, with no Idempotency-Key", async () => {
    const fn = await endpoint([503, 200]);
    try {
      const { token } = await signedInUser(t);
      const created = await call(t, "POST", "/api/v1/functions", {
        token,
        body: { name: "book", description: "Books a slot", url: `${fn.origin}/book` },
      });
      expect(created.statusCode, created.body).toBe(201);
      const res = await call(t, "POST", `/api/v1/functions/${created.json().id}/test`, {
        token,
        body: { arguments: {} },
      });
      expect(res.json()).toMatchObject({ ok: false, status: 503 });
      expect(fn.received).toHaveLength(1);
      expect(fn.received[0]?.headers["idempotency-key"]).toBeUndefined();
    } finally {
      await fn.close();
    }
  });
});
