import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  jsonBody,
  liveCallRequests,
  placeRecordedCall,
  testAccount,
  webhookUrls,
} from "../../../testing/telephony/recording-fetch.ts";
import { TelephonyError, type WebhookRequest } from "../../telephony/types.ts";
import plivo from "./index.ts";
import { EXTRA_HEADERS_LIMIT } from "./markup.ts";
import { streamParameters } from "./stream-codec.ts";

const adapter = plivo.telephony;
const credentials = { auth_id: "MAXXXXXXXXXXXXXXXXXX", auth_token: "plivo-token" };
const API = "https://api.plivo.com/v1/Account/MAXXXXXXXXXXXXXXXXXX";
const urls = webhookUrls("plivo");
/** The number an import hands to configureNumber. */
const NUMBER = { number: "+14155550000", providerNumberId: "14155550000", friendlyName: "", country: null };

describe("Plivo numbers", () => {
  it("lists numbers page by page as E.164", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ number: `1415555${String(i).padStart(4, "0")}`, alias: "" }));
    const { account, requests } = testAccount(credentials, (r) =>
      r.url.includes("offset=0")
        ? { json: { meta: { limit: 20, offset: 0, total_count: 21 }, objects: rows } }
        : {
            json: {
              meta: { limit: 20, offset: 20, total_count: 21 },
              objects: [{ number: "442071234567", alias: "London", country_iso2: "GB" }],
            },
          },
    );
    const numbers = await adapter.listNumbers(account);
    expect(numbers).toHaveLength(21);
    expect(numbers[0]).toEqual({
      number: "+14155550000",
      providerNumberId: "14155550000",
      friendlyName: "+14155550000",
      country: null,
    });
    expect(numbers[20]).toEqual({
      number: "+442071234567",
      providerNumberId: "442071234567",
      friendlyName: "London",
      country: "GB",
    });
    expect(requests.map((r) => r.url)).toEqual([
      `${API}/Number/?limit=20&offset=0`,
      `${API}/Number/?limit=20&offset=20`,
    ]);
    expect(requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("MAXXXXXXXXXXXXXXXXXX:plivo-token").toString("base64")}`,
    );
  });

  it("reports refused keys as a credentials error", async () => {
    const { account } = testAccount(credentials, () => ({
      status: 401,
      json: { error: "Authentication credentials invalid." },
    }));
    await expect(adapter.listNumbers(account)).rejects.toMatchObject({ kind: "credentials", status: 401 });
  });

  it("creates the Parley application and links the number to it", async () => {
    const { account, requests } = testAccount(credentials, (r) =>
      r.method === "GET"
        ? { json: { objects: [{ app_id: "111", app_name: "Other" }] } }
        : r.url.endsWith("/Application/")
          ? { status: 201, json: { app_id: "20372631212782780", message: "created" } }
          : { status: 202, json: { message: "changed" } },
    );
    await adapter.configureNumber(account, NUMBER, urls);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${API}/Application/?limit=20&offset=0`,
      `POST ${API}/Application/`,
      `POST ${API}/Number/14155550000/`,
    ]);
    expect(jsonBody(requests[1])).toEqual({
      app_name: "Parley",
      answer_url: urls.voiceUrl,
      answer_method: "POST",
      hangup_url: urls.statusUrl,
      hangup_method: "POST",
    });
    expect(jsonBody(requests[2])).toEqual({ app_id: "20372631212782780" });
  });

  it("updates the Parley application when it exists", async () => {
    const { account, requests } = testAccount(credentials, (r) =>
      r.method === "GET" ? { json: { objects: [{ app_id: "222", app_name: "Parley" }] } } : undefined,
    );
    await adapter.configureNumber(account, NUMBER, urls);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${API}/Application/?limit=20&offset=0`,
      `POST ${API}/Application/222/`,
      `POST ${API}/Number/14155550000/`,
    ]);
  });
});

describe("Plivo calls", () => {
  it("places a call with ring, hangup and machine detection callbacks", async () => {
    const answer = {
      status: 201,
      json: { api_id: "x", message: "call fired", request_uuid: "9834029e-58b6-11e1-b8b7-a5bd0e4e126f" },
    };
    const call = { from: "+14155550000", to: "+14155551111", urls };
    const { id, request } = await placeRecordedCall(adapter, credentials, answer, call);
    expect(id).toBe("9834029e-58b6-11e1-b8b7-a5bd0e4e126f");
    expect(request?.url).toBe(`${API}/Call/`);
    expect(jsonBody(request)).toEqual({
      from: "14155550000",
      to: "14155551111",
      answer_url: urls.voiceUrl,
      answer_method: "POST",
      ring_url: urls.statusUrl,
      ring_method: "POST",
      hangup_url: urls.statusUrl,
      hangup_method: "POST",
      machine_detection: "true",
      machine_detection_url: urls.statusUrl,
      machine_detection_method: "POST",
    });
  });

  it("transfers the A leg to the URL serving <Dial>, sends DTMF and hangs up", async () => {
    const transfer = {
      providerCallId: "uuid-1",
      destination: "+14155552222",
      callerId: "+14155550000",
      statusUrl: urls.statusUrl,
      markupUrl: "https://parley.example/api/v1/telephony/plivo/transfer/t1",
    };
    const requests = await liveCallRequests(adapter, credentials, transfer, "12#");
    const { account } = testAccount(credentials);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${API}/Call/uuid-1/`,
      `POST ${API}/Call/uuid-1/DTMF/`,
      `DELETE ${API}/Call/uuid-1/`,
    ]);
    expect(jsonBody(requests[0])).toEqual({ legs: "aleg", aleg_url: transfer.markupUrl, aleg_method: "POST" });
    expect(jsonBody(requests[1])).toEqual({ digits: "12#", leg: "aleg" });
    expect(adapter.transferMarkup?.(transfer).body).toMatchInlineSnapshot(
      `"<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="14155550000" action="https://parley.example/api/v1/telephony/plivo/status" method="POST" callbackUrl="https://parley.example/api/v1/telephony/plivo/status" callbackMethod="POST"><Number>14155552222</Number></Dial></Response>"`,
    );
    expect(adapter.transferMarkup?.({ ...transfer, destination: "sip:desk@pbx.example" }).body).toContain(
      "<User>sip:desk@pbx.example</User>",
    );
    await expect(adapter.transfer(account, { ...transfer, markupUrl: undefined })).rejects.toThrow(TelephonyError);
  });
});

describe("Plivo webhooks", () => {
  const rawBody = "CallUUID=abc&From=14155559999&To=14155550000&Direction=inbound&CallStatus=ringing";
  const url = "https://parley.example/api/v1/telephony/plivo/voice?number=1";
  const request = (signature: string, nonce = "12345678901234567890"): WebhookRequest => ({
    url,
    method: "POST",
    headers: { "X-Plivo-Signature-V3": signature, "X-Plivo-Signature-V3-Nonce": nonce },
    rawBody,
  });
  // The documented construction written out by hand: URL with its sorted query, ".", the sorted
  // body parameters as name and value with no separator, ".", the nonce; HMAC-SHA256, base64.
  const signedText =
    "https://parley.example/api/v1/telephony/plivo/voice?number=1.CallStatusringingCallUUIDabcDirectioninboundFrom14155559999To14155550000.12345678901234567890";
  const good = createHmac("sha256", "plivo-token").update(signedText).digest("base64");

  it("accepts the V3 signature and refuses others", () => {
    const { account } = testAccount(credentials);
    expect(adapter.verifyWebhook(account, request(good))).toBe(true);
    expect(adapter.verifyWebhook(account, request(`other,${good}`))).toBe(true);
    expect(adapter.verifyWebhook(account, request(good, "another-nonce"))).toBe(false);
    expect(adapter.verifyWebhook(account, { ...request(good), rawBody: `${rawBody}&x=1` })).toBe(false);
    expect(adapter.verifyWebhook(testAccount({ ...credentials, auth_token: "nope" }).account, request(good))).toBe(
      false,
    );
    expect(adapter.verifyWebhook(account, { ...request(good), headers: {} })).toBe(false);
  });

  it("reads answer, hangup and machine detection callbacks", () => {
    expect(adapter.parseIncomingCall(request(good))).toEqual({
      providerCallId: "abc",
      from: "+14155559999",
      to: "+14155550000",
      direction: "inbound",
      placedCallId: undefined,
    });
    const status = (raw: string) => adapter.parseStatus({ ...request(good), rawBody: raw });
    expect(
      status("CallUUID=abc&RequestUUID=req-1&Direction=outbound&CallStatus=completed&Duration=31&Event=Hangup"),
    ).toEqual({
      providerCallId: "abc",
      status: "completed",
      durationSeconds: 31,
      answeredBy: undefined,
      placedCallId: "req-1",
    });
    expect(status("CallUUID=abc&CallStatus=timeout")?.status).toBe("no-answer");
    // The answer URL's documented parameters name the request as ALegRequestUUID only.
    const answer = "CallUUID=abc&ALegUUID=abc&ALegRequestUUID=req-2&Direction=outbound&CallStatus=in-progress";
    expect(adapter.parseIncomingCall({ ...request(good), rawBody: answer }).placedCallId).toBe("req-2");
    // Only a call Parley placed has a request id to match.
    expect(
      status("CallUUID=abc&RequestUUID=req-1&Direction=inbound&CallStatus=completed")?.placedCallId,
    ).toBeUndefined();
    expect(status("CallUUID=abc&Machine=true")?.answeredBy).toBe("machine");
    expect(status("CallUUID=abc&CallStatus=in-progress&Machine=false")).toMatchObject({
      status: "in-progress",
      answeredBy: "human",
    });
    expect(status("CallUUID=abc")).toBeNull();
  });

  it("answers with a bidirectional μ-law <Stream> carrying the parameters in extraHeaders", () => {
    const answer = adapter.answerWithStream(urls, { call_id: "c-1" });
    expect(answer.body).toMatchInlineSnapshot(
      `"<?xml version="1.0" encoding="UTF-8"?><Response><Stream bidirectional="true" keepCallAlive="true" audioTrack="inbound" contentType="audio/x-mulaw;rate=8000" extraHeaders="callZ5Fid=cZ2D1">wss://parley.example/api/v1/telephony/plivo/stream</Stream></Response>"`,
    );
  });

  it("keeps a stream token's parameters to letters and digits within Plivo's 512 bytes, and reads them back", () => {
    // The server's stream grant at its largest (a resumed stream): four ids, HS256.
    const ids = [
      "0f8fad5b-d9cb-469f-a165-70867728950e",
      "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
      "a8098c1a-f86e-11da-bd1a-00112444be1e",
    ];
    const claims = { ws: ids[0], pn: ids[1], r: ids[2], sub: ids[3], iss: "parley", aud: "tel", exp: 1_800_000_000 };
    const token = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk`;
    const parameters = { call_id: "9b2d5d3e-1b7c-4a55-8f0e-2c8d3a1f6b7e", room: "call-5f3a9c1d2e4b", token };
    const header = /extraHeaders="([^"]*)"/.exec(adapter.answerWithStream(urls, parameters).body)?.[1] ?? "";
    expect(header).toMatch(/^[A-Za-z0-9=,]+$/);
    expect(header.length).toBeLessThanOrEqual(EXTRA_HEADERS_LIMIT);
    expect(streamParameters(header)).toEqual(parameters);
  });
});
