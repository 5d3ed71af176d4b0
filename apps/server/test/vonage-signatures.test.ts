import { randomUUID } from "node:crypto";
import { signWebhookJwt, webhookPayload } from "@parley/engine/testing/telephony/vonage-jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookUrlsFor } from "../src/modules/phone-numbers/webhook-urls.ts";
import { call } from "./harness.ts";
import type { BridgeDouble } from "./support/bridge-suite.ts";
import { vonageVendor } from "./support/carrier-vendors.ts";
import { type BridgeWorld, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * Issue 25, item 7: Vonage's signed webhooks as its docs describe them. The bearer JWT's `iat` must
 * be within five minutes (30 s of clock skew), its `payload_hash` must be the SHA-256 of the POST
 * body, or of a GET's query parameters as compact JSON, and its `jti` is used once.
 */

const CALLER = "14155559999";
const vendor = vonageVendor("+447700900150");
let double: BridgeDouble;
let world: BridgeWorld;

beforeAll(async () => {
  double = await vendor.startDouble();
  const credentials = await vendor.credentials(double);
  world = await startBridgeWorld({
    provider: "vonage",
    credentials: () => credentials,
    doubleOrigin: double.origin,
    number: vendor.number,
  });
}, 180_000);
afterAll(async () => {
  await world?.close();
  await double?.close();
});

const urls = () => webhookUrlsFor(world.t.config.publicUrl, "vonage");
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A Vonage webhook signed with the account's signature secret; `signed` overrides what the token covers. */
async function send(options: {
  method: "GET" | "POST";
  url: string;
  body?: string;
  iat?: number;
  jti?: string;
  signed?: { url?: string; body?: string };
}) {
  const body = options.body ?? "";
  const payload = webhookPayload(options.method, options.signed?.url ?? options.url, options.signed?.body ?? body);
  const secret = vendor.double().signatureSecret(vendor.apiKey);
  const token = signWebhookJwt(secret, {
    apiKey: vendor.apiKey,
    applicationId: randomUUID(),
    payload,
    iat: options.iat,
    jti: options.jti,
  });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.method === "POST") headers["content-type"] = "application/json";
  const res = await fetch(options.url, { method: options.method, headers, ...(body ? { body } : {}) });
  return res.status;
}

const answerFields = (uuid = randomUUID()) => ({
  to: vendor.number.slice(1),
  from: CALLER,
  uuid,
  conversation_uuid: `CON-${randomUUID()}`,
});

async function logCount(): Promise<number> {
  const res = await call(world.t, "GET", "/api/v1/call-logs?items_per_page=100", { token: world.token });
  return res.json<{ data: unknown[] }>().data.length;
}

describe("Vonage signed webhooks", () => {
  it("refuses a token issued 30 days ago (or ahead of the clock), and accepts one four minutes old", async () => {
    const before = await logCount();
    const body = JSON.stringify(answerFields());
    const old = await send({ method: "POST", url: urls().voiceUrl, body, iat: nowSeconds() - 30 * 86_400 });
    expect(old).toBe(403);
    const ahead = await send({ method: "POST", url: urls().voiceUrl, body, iat: nowSeconds() + 600 });
    expect(ahead).toBe(403);
    expect(await logCount()).toBe(before);
    expect(await send({ method: "POST", url: urls().voiceUrl, body, iat: nowSeconds() - 240 })).toBe(200);
    expect(await logCount()).toBe(before + 1);
  });

  it("refuses a POST whose body is not the one payload_hash covers", async () => {
    const body = JSON.stringify(answerFields());
    const signed = { body: JSON.stringify(answerFields()) };
    expect(await send({ method: "POST", url: urls().voiceUrl, body, signed })).toBe(403);
  });

  it("does not read a POST's call from its query, which the signature does not cover", async () => {
    const before = await logCount();
    const url = `${urls().voiceUrl}?${new URLSearchParams(answerFields())}`;
    expect(await send({ method: "POST", url })).toBe(403);
    expect(await logCount()).toBe(before);
  });

  it("accepts a GET whose query parameters payload_hash covers, and refuses them changed", async () => {
    const before = await logCount();
    const fields = answerFields();
    const url = `${urls().voiceUrl}?${new URLSearchParams(fields)}`;
    const tampered = `${urls().voiceUrl}?${new URLSearchParams({ ...fields, uuid: randomUUID() })}`;
    expect(await send({ method: "GET", url: tampered, signed: { url } })).toBe(403);
    const extra = `${url}&direction=outbound`;
    expect(await send({ method: "GET", url: extra, signed: { url } })).toBe(403);
    expect(await logCount()).toBe(before);
    expect(await send({ method: "GET", url })).toBe(200);
    expect(await logCount()).toBe(before + 1);
  });

  it("takes each event of a call once per token: fresh tokens repeat, the same token is refused", async () => {
    const fields = answerFields();
    expect(await send({ method: "POST", url: urls().voiceUrl, body: JSON.stringify(fields) })).toBe(200);
    const event = JSON.stringify({ ...fields, status: "ringing", direction: "inbound" });
    const jti = randomUUID();
    expect(await send({ method: "POST", url: urls().statusUrl, body: event, jti })).toBe(204);
    expect(await send({ method: "POST", url: urls().statusUrl, body: event })).toBe(204);
    expect(await send({ method: "POST", url: urls().statusUrl, body: event, jti })).toBe(403);
  });
});
