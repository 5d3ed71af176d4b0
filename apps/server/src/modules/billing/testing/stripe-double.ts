import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the part of Stripe's REST API Parley uses (customers, prices with lookup keys,
 * checkout sessions, billing portal sessions), on 127.0.0.1. It answers like Stripe: form-encoded
 * requests with `Authorization: Bearer <secret key>`, JSON objects with prefixed ids, 401 with
 * `{ error: { type, message } }` for a wrong key, 400 for a missing parameter.
 */
export interface StripeDouble {
  url: string;
  /** Every request: method, path and its form parameters (or query, for GET). */
  requests: { method: string; path: string; params: URLSearchParams }[];
  customers: Map<string, Record<string, string>>;
  prices: Map<string, { id: string; unit_amount: number; lookup_key: string; product_name: string }>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startStripeDouble(secretKey: string): Promise<StripeDouble> {
  const requests: StripeDouble["requests"] = [];
  const customers: StripeDouble["customers"] = new Map();
  const prices: StripeDouble["prices"] = new Map();

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const params = req.method === "GET" ? url.searchParams : await formOf(req);
    requests.push({ method: req.method ?? "", path: url.pathname, params });
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const invalid = (message: string) => send(400, { error: { type: "invalid_request_error", message } });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
      return;
    }
    if (req.method === "POST" && req.headers["content-type"] !== "application/x-www-form-urlencoded") {
      invalid("Requests must be form-encoded");
      return;
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /v1/customers") {
      const customer = { id: id("cus"), object: "customer", ...Object.fromEntries(params) };
      customers.set(customer.id, Object.fromEntries(params));
      send(200, customer);
    } else if (route === "GET /v1/prices") {
      const keys = params.getAll("lookup_keys[]");
      send(200, { object: "list", data: [...prices.values()].filter((p) => keys.includes(p.lookup_key)) });
    } else if (route === "POST /v1/prices") {
      const amount = Number(params.get("unit_amount"));
      const lookupKey = params.get("lookup_key") ?? "";
      if (!Number.isInteger(amount) || params.get("recurring[interval]") !== "month") {
        invalid("unit_amount and recurring[interval] are required");
        return;
      }
      const price = {
        id: id("price"),
        unit_amount: amount,
        lookup_key: lookupKey,
        product_name: params.get("product_data[name]") ?? "",
      };
      prices.set(price.id, price);
      send(200, { ...price, object: "price", currency: params.get("currency"), active: true });
    } else if (route === "POST /v1/checkout/sessions") {
      const customer = params.get("customer") ?? "";
      if (!customers.has(customer) || !prices.has(params.get("line_items[0][price]") ?? "")) {
        invalid("No such customer or price");
        return;
      }
      const session = id("cs_test");
      send(200, { id: session, object: "checkout.session", url: `https://checkout.example.test/c/pay/${session}` });
    } else if (route === "POST /v1/billing_portal/sessions") {
      if (!customers.has(params.get("customer") ?? "")) {
        invalid("No such customer");
        return;
      }
      const session = id("bps");
      send(200, {
        id: session,
        object: "billing_portal.session",
        url: `https://billing.example.test/p/session/${session}`,
      });
    } else {
      send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${route})` } });
    }
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    prices,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
