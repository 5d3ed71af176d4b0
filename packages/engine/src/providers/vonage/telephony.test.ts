import { createHash, createHmac, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  jsonBody,
  liveCallRequests,
  placeRecordedCall,
  testAccount,
  webhookUrls,
} from "../../../testing/telephony/recording-fetch.ts";
import type { WebhookRequest } from "../../telephony/types.ts";
import vonage from "./index.ts";

const adapter = vonage.telephony;
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const credentials = {
  api_key: "abcd1234",
  api_secret: "s3cr3t",
  application_id: "aaaaaaaa-bbbb-cccc-dddd-0123456789ab",
  private_key: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  signature_secret: "sig-secret",
};
const urls = webhookUrls("vonage");

/** Reads a JWT Parley sent and checks its RS256 signature with the application's public key. */
function applicationClaims(authorization: string | undefined) {
  const token = authorization?.replace(/^Bearer /, "") ?? "";
  const [header, claims, signature] = token.split(".");
  expect(JSON.parse(Buffer.from(header ?? "", "base64url").toString())).toEqual({ alg: "RS256", typ: "JWT" });
  expect(
    verify("RSA-SHA256", Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature ?? "", "base64url")),
  ).toBe(true);
  return JSON.parse(Buffer.from(claims ?? "", "base64url").toString());
}

describe("Vonage numbers", () => {
  it("lists the account's numbers with key and secret", async () => {
    const { account, requests } = testAccount(credentials, () => ({
      json: { count: 1, numbers: [{ country: "GB", msisdn: "447700900000", type: "mobile-lvn", features: ["VOICE"] }] },
    }));
    expect(await adapter.listNumbers(account)).toEqual([
      { number: "+447700900000", providerNumberId: "447700900000", friendlyName: "+447700900000", country: "GB" },
    ]);
    expect(requests[0]?.url).toBe(
      "https://rest.nexmo.com/account/numbers?api_key=abcd1234&api_secret=s3cr3t&size=100&index=1",
    );
  });

  it("reports refused keys as a credentials error", async () => {
    const { account } = testAccount(credentials, () => ({
      status: 401,
      json: { "error-code": "401", "error-code-label": "authentication failed" },
    }));
    await expect(adapter.listNumbers(account)).rejects.toMatchObject({ kind: "credentials" });
  });

  it("points the application's voice webhooks at Parley and links the number", async () => {
    const { account, requests } = testAccount(credentials, (r) =>
      r.method === "GET"
        ? {
            json: {
              id: credentials.application_id,
              name: "My app",
              capabilities: { messages: { webhooks: {} }, voice: { webhooks: {} } },
            },
          }
        : undefined,
    );
    await adapter.configureNumber(
      account,
      { number: "+447700900000", providerNumberId: "447700900000", friendlyName: "", country: "GB" },
      urls,
    );
    const appUrl = `https://api.nexmo.com/v2/applications/${credentials.application_id}`;
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${appUrl}`,
      `PUT ${appUrl}`,
      "POST https://rest.nexmo.com/number/update?api_key=abcd1234&api_secret=s3cr3t",
    ]);
    expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("abcd1234:s3cr3t").toString("base64")}`);
    expect(jsonBody(requests[1])).toEqual({
      name: "My app",
      capabilities: {
        messages: { webhooks: {} },
        voice: {
          webhooks: {
            answer_url: { address: urls.voiceUrl, http_method: "POST" },
            event_url: { address: urls.statusUrl, http_method: "POST" },
          },
          signed_callbacks: true,
        },
      },
    });
    expect(Object.fromEntries(new URLSearchParams(requests[2]?.body))).toEqual({
      country: "GB",
      msisdn: "447700900000",
      app_id: credentials.application_id,
    });
  });
});

describe("Vonage calls", () => {
  it("places a call with the application's JWT", async () => {
    const answer = {
      status: 201,
      json: { uuid: "63f61863-4a51-4f6b-86e1-46edebcf9356", status: "started", direction: "outbound" },
    };
    const call = { from: "+447700900000", to: "+447700900001", urls };
    const { id: uuid, request } = await placeRecordedCall(adapter, credentials, answer, call);
    expect(uuid).toBe("63f61863-4a51-4f6b-86e1-46edebcf9356");
    expect(request?.url).toBe("https://api.nexmo.com/v1/calls");
    const claims = applicationClaims(request?.headers.authorization);
    expect(claims.application_id).toBe(credentials.application_id);
    expect(claims.exp - claims.iat).toBe(900);
    expect(typeof claims.jti).toBe("string");
    expect(jsonBody(request)).toEqual({
      to: [{ type: "phone", number: "447700900001" }],
      from: { type: "phone", number: "447700900000" },
      answer_url: [`${urls.voiceUrl}?direction=outbound`],
      answer_method: "POST",
      event_url: [urls.statusUrl],
      event_method: "POST",
      machine_detection: "continue",
    });
  });

  it("takes the private key pasted without its line breaks, and names a broken one", async () => {
    const pem = credentials.private_key;
    for (const pasted of [pem.replace(/\n/g, ""), pem.replace(/\n/g, " "), pem.replace(/\n/g, "\\n")]) {
      const { account, requests } = testAccount({ ...credentials, private_key: pasted });
      await adapter.hangup(account, "u1");
      expect(applicationClaims(requests[0]?.headers.authorization).application_id).toBe(credentials.application_id);
    }
    const { account } = testAccount({ ...credentials, private_key: "not a key" });
    await expect(adapter.hangup(account, "u1")).rejects.toMatchObject({ kind: "credentials" });
  });

  it("transfers to an NCCO, sends DTMF and hangs up with PUTs on the call", async () => {
    const transfer = {
      providerCallId: "u1",
      destination: "+447700900002",
      callerId: "+447700900000",
      statusUrl: urls.statusUrl,
    };
    const requests = await liveCallRequests(adapter, credentials, transfer, "1234#");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "PUT https://api.nexmo.com/v1/calls/u1",
      "PUT https://api.nexmo.com/v1/calls/u1/dtmf",
      "PUT https://api.nexmo.com/v1/calls/u1",
    ]);
    expect(jsonBody(requests[0])).toEqual({
      action: "transfer",
      destination: {
        type: "ncco",
        ncco: [
          {
            action: "connect",
            from: "447700900000",
            eventUrl: [urls.statusUrl],
            eventMethod: "POST",
            endpoint: [{ type: "phone", number: "447700900002" }],
          },
        ],
      },
    });
    expect(jsonBody(requests[1])).toEqual({ digits: "1234#" });
    expect(jsonBody(requests[2])).toEqual({ action: "hangup" });
  });
});

describe("Vonage webhooks", () => {
  const rawBody = JSON.stringify({ from: "447700900001", to: "447700900000", uuid: "u1", conversation_uuid: "CON-1" });

  /** A signed-webhook token built by hand as Vonage documents it: HS256 over header.claims. */
  function signedToken(claims: Record<string, unknown>, secret = "sig-secret") {
    const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
    return `${header}.${payload}.${signature}`;
  }
  const hash = createHash("sha256").update(rawBody).digest("hex");
  const request = (token: string, raw = rawBody): WebhookRequest => ({
    url: urls.voiceUrl,
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    rawBody: raw,
  });
  const claims = {
    iat: Math.floor(Date.now() / 1000),
    jti: "j1",
    iss: "Vonage",
    payload_hash: hash,
    api_key: "abcd1234",
    application_id: credentials.application_id,
  };

  it("accepts a token signed with the signature secret over this body, and nothing else", () => {
    const { account } = testAccount(credentials);
    expect(adapter.verifyWebhook(account, request(signedToken(claims)))).toBe(true);
    expect(adapter.verifyWebhook(account, request(signedToken(claims, "other")))).toBe(false);
    expect(adapter.verifyWebhook(account, request(signedToken(claims), `${rawBody} `))).toBe(false);
    expect(adapter.verifyWebhook(account, request(signedToken({ ...claims, exp: 1 })))).toBe(false);
    expect(adapter.verifyWebhook(account, { ...request(""), headers: {} })).toBe(false);
  });

  it("refuses a token issued more than five minutes ago, one without jti, and GET parameters it does not cover", () => {
    const { account } = testAccount(credentials);
    const now = Math.floor(Date.now() / 1000);
    expect(adapter.verifyWebhook(account, request(signedToken({ ...claims, iat: now - 240 })))).toBe(true);
    expect(adapter.verifyWebhook(account, request(signedToken({ ...claims, iat: now - 30 * 86_400 })))).toBe(false);
    expect(adapter.verifyWebhook(account, request(signedToken({ ...claims, iat: now + 600 })))).toBe(false);
    expect(adapter.verifyWebhook(account, request(signedToken({ ...claims, jti: undefined })))).toBe(false);
    const query = "to=447700900000&from=447700900001&uuid=u2";
    const get = (token: string, url: string): WebhookRequest => ({ ...request(token, ""), method: "GET", url });
    const queryHash = createHash("sha256")
      .update(JSON.stringify({ to: "447700900000", from: "447700900001", uuid: "u2" }))
      .digest("hex");
    const getToken = signedToken({ ...claims, payload_hash: queryHash });
    expect(adapter.verifyWebhook(account, get(getToken, `${urls.voiceUrl}?${query}`))).toBe(true);
    expect(adapter.verifyWebhook(account, get(getToken, `${urls.voiceUrl}?${query.replace("u2", "u3")}`))).toBe(false);
    // A token signed over an empty body says nothing of a GET's parameters.
    const emptyHash = createHash("sha256").update("").digest("hex");
    const empty = signedToken({ ...claims, payload_hash: emptyHash });
    expect(adapter.verifyWebhook(account, get(empty, `${urls.voiceUrl}?${query}`))).toBe(false);
    expect(adapter.webhookNonce?.(request(signedToken(claims)))).toEqual({
      id: "j1",
      expiresAt: new Date((claims.iat + 330) * 1000),
    });
  });

  it("reads answer and event webhooks", () => {
    expect(adapter.parseIncomingCall(request(""))).toEqual({
      providerCallId: "u1",
      from: "+447700900001",
      to: "+447700900000",
      direction: "inbound",
    });
    const getRequest = {
      ...request(""),
      method: "GET" as const,
      rawBody: "",
      url: `${urls.voiceUrl}?to=447700900000&from=447700900001&uuid=u2`,
    };
    expect(adapter.parseIncomingCall(getRequest).providerCallId).toBe("u2");
    const placed = { ...request(""), url: `${urls.voiceUrl}?direction=outbound` };
    expect(adapter.parseIncomingCall(placed).direction).toBe("outbound");
    const status = (event: Record<string, unknown>) =>
      adapter.parseStatus({ ...request(""), rawBody: JSON.stringify(event) });
    expect(status({ uuid: "u1", status: "completed", duration: "27", direction: "inbound" })).toEqual({
      providerCallId: "u1",
      status: "completed",
      durationSeconds: 27,
    });
    expect(status({ uuid: "u1", status: "unanswered" })?.status).toBe("no-answer");
    expect(status({ uuid: "u1", status: "machine" })).toEqual({
      providerCallId: "u1",
      status: "in-progress",
      answeredBy: "machine",
    });
    expect(status({ uuid: "u1", status: "transfer" })).toBeNull();
  });

  it("answers with an NCCO connecting to the WebSocket at 16 kHz with the parameters as headers", () => {
    const answer = adapter.answerWithStream(
      urls,
      { call_id: "c1" },
      { providerCallId: "u1", from: "+1", to: "+2", direction: "inbound" },
    );
    expect(answer.contentType).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual([
      {
        action: "connect",
        eventUrl: [urls.statusUrl],
        eventMethod: "POST",
        endpoint: [
          {
            type: "websocket",
            uri: urls.streamUrl,
            "content-type": "audio/l16;rate=16000",
            headers: { call_id: "c1", call_uuid: "u1" },
          },
        ],
      },
    ]);
  });
});
