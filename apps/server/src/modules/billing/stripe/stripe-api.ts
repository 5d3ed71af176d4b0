import { z } from "zod";

/**
 * The part of Stripe's REST API Parley uses, spoken directly: form-encoded requests with the secret
 * key as a Bearer token, JSON answers, errors as `{ error: { message } }`. The API root is the
 * operator's setting (STRIPE_API_URL), never a user's, so it is fetched without the SSRF guard.
 * Every successful answer is checked against the fields Parley reads, so a changed or broken answer
 * is a PaymentAnswerError (a 502) instead of an undefined id reaching the database.
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

/** A 2xx answer without the fields Parley needs; `shape` names its fields and their types, never values. */
export class PaymentAnswerError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly shape: string,
    readonly problems: readonly string[],
  ) {
    super(`Unreadable answer from ${path} (HTTP ${status}): ${problems.join("; ")}`);
    this.name = "PaymentAnswerError";
  }
}

const StripeObject = z.object({ id: z.string().min(1) });
const StripePriceList = z.object({ data: z.array(StripeObject) });
const StripeSession = StripeObject.extend({ url: z.url({ protocol: /^https?$/ }) });

/** A body's outline for the log: top-level field names with their JSON types (values may be personal data). */
export function shapeOf(body: unknown): string {
  if (Array.isArray(body)) return `array(${body.length})`;
  if (body === null || typeof body !== "object") return body === undefined ? "not JSON" : typeof body;
  const fields = Object.entries(body).slice(0, 20);
  const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  return `{${fields.map(([name, value]) => `${name}: ${typeOf(value)}`).join(", ")}}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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

  private async request<T>(
    method: "GET" | "POST",
    path: string,
    answer: z.ZodType<T>,
    params: [string, string][] = [],
  ): Promise<T> {
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
    const body = parseJson(await res.text());
    if (!res.ok) {
      const message = z.object({ error: z.object({ message: z.string() }) }).safeParse(body).data?.error.message;
      throw new PaymentProviderError(message ?? `HTTP ${res.status}`, res.status);
    }
    const parsed = answer.safeParse(body);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "answer"}: ${issue.message}`);
    throw new PaymentAnswerError(path, res.status, shapeOf(body), problems);
  }

  async createCustomer(input: { name: string; email: string | null; workspaceId: string }): Promise<string> {
    const params: [string, string][] = [
      ["name", input.name],
      ["metadata[workspace_id]", input.workspaceId],
    ];
    if (input.email) params.push(["email", input.email]);
    return (await this.request("POST", "/v1/customers", StripeObject, params)).id;
  }

  /**
   * The recurring monthly price of a tier, created on first use. Its lookup key names the tier and
   * the amount, so a tier whose price changes gets a new price and existing subscriptions keep theirs.
   */
  async tierPrice(tier: TierForSale): Promise<string> {
    const cents = Math.round(tier.price * 100);
    const lookupKey = `parley_tier_${tier.id}_${cents}`;
    const found = await this.request("GET", "/v1/prices", StripePriceList, [
      ["lookup_keys[]", lookupKey],
      ["active", "true"],
    ]);
    const existing = found.data[0];
    if (existing) return existing.id;
    const created = await this.request("POST", "/v1/prices", StripeObject, [
      ["currency", "usd"],
      ["unit_amount", String(cents)],
      ["recurring[interval]", "month"],
      ["product_data[name]", `Parley ${tier.name}`],
      ["lookup_key", lookupKey],
    ]);
    return created.id;
  }

  async checkoutSession(input: { customer: string; price: string; successUrl: string; cancelUrl: string }) {
    const session = await this.request("POST", "/v1/checkout/sessions", StripeSession, [
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
    const session = await this.request("POST", "/v1/billing_portal/sessions", StripeSession, [
      ["customer", input.customer],
      ["return_url", input.returnUrl],
    ]);
    return session.url;
  }
}
