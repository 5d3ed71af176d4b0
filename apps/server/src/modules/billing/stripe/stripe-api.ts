/**
 * The part of Stripe's REST API Parley uses, spoken directly: form-encoded requests with the secret
 * key as a Bearer token, JSON answers, errors as `{ error: { message } }`. The API root is the
 * operator's setting (STRIPE_API_URL), never a user's, so it is fetched without the SSRF guard.
 */

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

interface StripeList<T> {
  data: T[];
}
interface StripeObject {
  id: string;
}
interface StripePrice extends StripeObject {
  unit_amount: number | null;
  currency: string;
  active: boolean;
}
interface StripeSession extends StripeObject {
  url: string;
}

export interface TierForSale {
  id: string;
  name: string;
  /** USD a month. */
  price: number;
}

export class StripeApi {
  constructor(
    private readonly secretKey: string,
    private readonly apiUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async request<T>(method: "GET" | "POST", path: string, params: [string, string][] = []): Promise<T> {
    const form = new URLSearchParams(params).toString();
    const url = method === "GET" && form ? `${this.apiUrl}${path}?${form}` : `${this.apiUrl}${path}`;
    const res = await this.fetchImpl(url, {
      method,
      headers: {
        authorization: `Bearer ${this.secretKey}`,
        ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: method === "POST" ? form : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
    if (!res.ok) throw new PaymentProviderError(body.error?.message ?? `HTTP ${res.status}`, res.status);
    return body as T;
  }

  async createCustomer(input: { name: string; email: string | null; workspaceId: string }): Promise<string> {
    const params: [string, string][] = [
      ["name", input.name],
      ["metadata[workspace_id]", input.workspaceId],
    ];
    if (input.email) params.push(["email", input.email]);
    return (await this.request<StripeObject>("POST", "/v1/customers", params)).id;
  }

  /**
   * The recurring monthly price of a tier, created on first use. Its lookup key names the tier and
   * the amount, so a tier whose price changes gets a new price and existing subscriptions keep theirs.
   */
  async tierPrice(tier: TierForSale): Promise<string> {
    const cents = Math.round(tier.price * 100);
    const lookupKey = `parley_tier_${tier.id}_${cents}`;
    const found = await this.request<StripeList<StripePrice>>("GET", "/v1/prices", [
      ["lookup_keys[]", lookupKey],
      ["active", "true"],
    ]);
    const existing = found.data[0];
    if (existing) return existing.id;
    const created = await this.request<StripePrice>("POST", "/v1/prices", [
      ["currency", "usd"],
      ["unit_amount", String(cents)],
      ["recurring[interval]", "month"],
      ["product_data[name]", `Parley ${tier.name}`],
      ["lookup_key", lookupKey],
    ]);
    return created.id;
  }

  async checkoutSession(input: { customer: string; price: string; successUrl: string; cancelUrl: string }) {
    const session = await this.request<StripeSession>("POST", "/v1/checkout/sessions", [
      ["mode", "subscription"],
      ["customer", input.customer],
      ["line_items[0][price]", input.price],
      ["line_items[0][quantity]", "1"],
      ["success_url", input.successUrl],
      ["cancel_url", input.cancelUrl],
    ]);
    return session.url;
  }

  async portalSession(input: { customer: string; returnUrl: string }): Promise<string> {
    const session = await this.request<StripeSession>("POST", "/v1/billing_portal/sessions", [
      ["customer", input.customer],
      ["return_url", input.returnUrl],
    ]);
    return session.url;
  }
}
