import { PaymentRedirect, PaymentStatus } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { updateUser } from "../users/service.ts";
import { createTier } from "../users/tiers.ts";
import { PAYMENTS_OFF } from "./stripe/payments.ts";
import { type StripeDouble, startStripeDouble } from "./testing/stripe-double.ts";

/** Optional payments: with STRIPE_SECRET_KEY, a tier maps to a monthly price and the portal opens. */

const KEY = "sk_test_parley_double_key";
let stripe: StripeDouble;
let paid: TestApp;
let free: TestApp;

beforeAll(async () => {
  stripe = await startStripeDouble(KEY);
  paid = await createTestApp({ STRIPE_SECRET_KEY: KEY, STRIPE_API_URL: stripe.url });
  free = await createTestApp();
});
afterAll(async () => {
  await paid.close();
  await free.close();
  await stripe.close();
});

async function ownerOnTier(t: TestApp, price: number) {
  const user = await signedInUser(t);
  const tier = await createTier(t.ctx.db, {
    name: `Pro ${user.user.id.slice(0, 8)}`,
    description: null,
    max_assistants: 10,
    minutes_per_month: 1000,
    concurrent_calls: 5,
    max_workspaces: 3,
    price,
  });
  await updateUser(t.ctx.db, user.user.id, { tierId: tier.id });
  return { user, tier };
}

describe("with payments configured", () => {
  it("subscribes a workspace to its tier's monthly price and opens its customer portal", async () => {
    const { user, tier } = await ownerOnTier(paid, 49);
    const status = PaymentStatus.parse(
      (await call(paid, "GET", "/api/v1/billing/payments", { token: user.token })).json(),
    );
    expect(status).toEqual({ enabled: true, can_subscribe: true, has_customer: false });

    const checkout = await call(paid, "POST", "/api/v1/billing/payments/checkout", { token: user.token });
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(PaymentRedirect.parse(checkout.json()).url).toMatch(/^https:\/\/checkout\.example\.test\/c\/pay\/cs_test_/);
    const [price] = [...stripe.prices.values()].filter((p) => p.lookup_key === `parley_tier_${tier.id}_4900`);
    expect(price).toMatchObject({ unit_amount: 4900, product_name: `Parley ${tier.name}` });
    const created = stripe.requests.find((r) => r.path === "/v1/customers");
    expect(created?.params.get("metadata[workspace_id]")).toBe(user.workspaceId);

    // A second checkout reuses the customer and the price.
    await call(paid, "POST", "/api/v1/billing/payments/checkout", { token: user.token });
    expect(stripe.requests.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    expect(stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/prices")).toHaveLength(1);

    const portal = await call(paid, "POST", "/api/v1/billing/payments/portal", { token: user.token });
    expect(PaymentRedirect.parse(portal.json()).url).toMatch(/^https:\/\/billing\.example\.test\/p\/session\/bps_/);
    const portalRequest = stripe.requests.findLast((r) => r.path === "/v1/billing_portal/sessions");
    expect(portalRequest?.params.get("return_url")).toBe(`${paid.config.publicUrl}/billing`);
    expect(
      PaymentStatus.parse((await call(paid, "GET", "/api/v1/billing/payments", { token: user.token })).json()),
    ).toMatchObject({ has_customer: true });
  });

  it("leaves checkout to owners, and refuses it without a priced tier", async () => {
    const owner = await signedInUser(paid);
    const refused = await call(paid, "POST", "/api/v1/billing/payments/checkout", { token: owner.token });
    expect(refused.statusCode).toBe(409);
  });

  it("reports the provider's refusal as a 502", async () => {
    const broken = await createTestApp({ STRIPE_SECRET_KEY: "sk_test_wrong", STRIPE_API_URL: stripe.url });
    try {
      const { user } = await ownerOnTier(broken, 10);
      const res = await call(broken, "POST", "/api/v1/billing/payments/portal", { token: user.token });
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toBe("The payment provider refused the request: Invalid API Key provided");
    } finally {
      await broken.close();
    }
  });
});

describe("without payments", () => {
  it("says so, and nothing else changes", async () => {
    const { user } = await ownerOnTier(free, 49);
    const status = (await call(free, "GET", "/api/v1/billing/payments", { token: user.token })).json();
    expect(status).toEqual({ enabled: false, can_subscribe: false, has_customer: false });
    const portal = await call(free, "POST", "/api/v1/billing/payments/portal", { token: user.token });
    expect(portal.statusCode).toBe(404);
    expect(portal.json().detail).toBe(PAYMENTS_OFF);
    expect((await call(free, "GET", "/api/v1/billing/usage", { token: user.token })).statusCode).toBe(200);
  });
});
