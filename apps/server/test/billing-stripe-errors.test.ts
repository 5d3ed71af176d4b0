import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { updateUser } from "../src/modules/users/service.ts";
import { createTier } from "../src/modules/users/tiers.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

/**
 * Issue 25 item 13b: an answer from Stripe that Parley cannot use (no id, no URL, not JSON) is a
 * 502 with the documented sentence, logged at error with its status and shape, never a 500.
 */

const KEY = "sk_test_malformed_answers_key";
const UNREADABLE = "The payment provider sent an answer Parley could not read.";

/** What the stand-in answers, by "METHOD /path": status and raw body. Paths left out answer like Stripe. */
let answers: Record<string, { status: number; body: string }> = {};
let server: Server;
let apiUrl = "";

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
const wellFormed: Record<string, { status: number; body: string }> = {
  "POST /v1/customers": json(200, { id: "cus_ok", object: "customer", email: "owner@example.test" }),
  "POST /v1/billing_portal/sessions": json(200, {
    id: "bps_ok",
    object: "billing_portal.session",
    url: "https://billing.example.test/p/session/bps_ok",
  }),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const route = `${req.method} ${new URL(req.url ?? "/", "http://x").pathname}`;
    const answer = answers[route] ?? wellFormed[route] ?? json(404, { error: { message: "Unrecognized request URL" } });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers = {};
});

const t = useTestApp(() => ({ STRIPE_SECRET_KEY: KEY, STRIPE_API_URL: apiUrl }));

async function owner() {
  const user = await signedInUser(t);
  const tier = await createTier(t.ctx.db, {
    name: `Pro ${user.user.id.slice(0, 8)}`,
    description: null,
    max_assistants: 10,
    minutes_per_month: 1000,
    concurrent_calls: 5,
    max_workspaces: 3,
    price: 20,
  });
  await updateUser(t.ctx.db, user.user.id, { tierId: tier.id });
  return user;
}

describe("POST /billing/payments/portal with an answer Parley cannot use", () => {
  it.each([
    ["a customer without an id", "POST /v1/customers", json(200, { object: "customer", email: "owner@example.test" })],
    ["a customer whose id is not text", "POST /v1/customers", json(200, { id: 42, object: "customer" })],
    ["a customer answer that is not JSON", "POST /v1/customers", { status: 200, body: "<html>upgrading</html>" }],
    ["a portal session without a URL", "POST /v1/billing_portal/sessions", json(200, { id: "bps_1" })],
    [
      "a portal session URL that is no URL",
      "POST /v1/billing_portal/sessions",
      json(200, { id: "bps_1", url: "soon" }),
    ],
    ["a portal session that is a list", "POST /v1/billing_portal/sessions", json(200, [])],
  ])("answers 502 for %s, and logs its shape", async (_case, route, answer) => {
    answers[route] = answer;
    const { token } = await owner();
    const error = vi.spyOn(t.ctx.calls.log, "error");
    const res = await call(t, "POST", "/api/v1/billing/payments/portal", { token });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().detail).toBe(UNREADABLE);

    expect(error).toHaveBeenCalledTimes(1);
    const [fields, message] = error.mock.calls[0] as [Record<string, unknown>, string];
    expect(message).toBe("unreadable answer from the payment provider");
    expect(fields).toMatchObject({ path: route.split(" ")[1], status: 200 });
    expect(typeof fields.shape).toBe("string");
    // The shape names fields and types, never values (a customer's email, a session URL) or the key.
    expect(JSON.stringify(fields)).not.toMatch(/owner@example\.test|sk_test|bps_1|upgrading/);
    error.mockRestore();
  });

  it("still opens the portal when the answer is well formed", async () => {
    const { token } = await owner();
    const res = await call(t, "POST", "/api/v1/billing/payments/portal", { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: "https://billing.example.test/p/session/bps_ok" });
  });
});
