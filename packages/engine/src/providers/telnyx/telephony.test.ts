import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  jsonBody,
  liveCallRequests,
  placeRecordedCall,
  testAccount,
  webhookUrls,
} from "../../../testing/telephony/recording-fetch.ts";
import { TelephonyError, type WebhookRequest } from "../../telephony/types.ts";
import telnyx from "./index.ts";
import { verifyTelnyxSignature } from "./signature.ts";

const adapter = telnyx.telephony;
const credentials = { api_key: "KEY123", application_id: "1293384261075731499", public_key: "" };
const urls = webhookUrls("telnyx");

describe("Telnyx numbers", () => {
  it("lists numbers page by page with the bearer key", async () => {
    const { account, requests } = testAccount(credentials, (request) =>
      request.url.includes("page%5Bnumber%5D=1")
        ? { json: { data: [{ id: "111", phone_number: "+13125550001" }], meta: { total_pages: 2, page_number: 1 } } }
        : {
            json: {
              data: [{ id: "222", phone_number: "+13125550002", connection_name: "Support" }],
              meta: { total_pages: 2 },
            },
          },
    );
    expect(await adapter.listNumbers(account)).toEqual([
      { number: "+13125550001", providerNumberId: "111", friendlyName: "+13125550001", country: null },
      { number: "+13125550002", providerNumberId: "222", friendlyName: "Support", country: null },
    ]);
    expect(requests.map((r) => r.url)).toEqual([
      "https://api.telnyx.com/v2/phone_numbers?page%5Bnumber%5D=1&page%5Bsize%5D=250",
      "https://api.telnyx.com/v2/phone_numbers?page%5Bnumber%5D=2&page%5Bsize%5D=250",
    ]);
    expect(requests[0]?.headers.authorization).toBe("Bearer KEY123");
  });

  it("reports a refused key as a credentials error", async () => {
    const { account } = testAccount(credentials, () => ({
      status: 401,
      json: { errors: [{ code: "10009", title: "Authentication failed", detail: "The API key is invalid." }] },
    }));
    const error = await adapter.listNumbers(account).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({ kind: "credentials" });
    expect(String(error)).toContain("The API key is invalid.");
  });

  it("points the TeXML application at Parley and assigns the number to it", async () => {
    const { account, requests } = testAccount(credentials, (r) =>
      r.method === "GET" ? { json: { data: { id: credentials.application_id, friendly_name: "My app" } } } : undefined,
    );
    await adapter.configureNumber(
      account,
      { number: "+13125550001", providerNumberId: "111", friendlyName: "", country: null },
      urls,
    );
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "GET /v2/texml_applications/1293384261075731499",
      "PATCH /v2/texml_applications/1293384261075731499",
      "PATCH /v2/phone_numbers/111",
    ]);
    expect(jsonBody(requests[1])).toEqual({
      friendly_name: "My app",
      voice_url: urls.voiceUrl,
      voice_method: "post",
      status_callback: urls.statusUrl,
      status_callback_method: "post",
    });
    expect(jsonBody(requests[2])).toEqual({ connection_id: "1293384261075731499" });
  });

  it("names a missing application id as a credentials problem", async () => {
    const { account } = testAccount({ api_key: "KEY123" });
    await expect(
      adapter.placeCall(account, { from: "+1", to: "+2", urls, machineDetection: false }),
    ).rejects.toMatchObject({
      kind: "credentials",
      message: "No application ID for Telnyx. Add one on the Integrations page.",
    });
  });
});

describe("Telnyx calls", () => {
  it("places a TeXML call with status events and machine detection", async () => {
    const answer = { json: { call_sid: "v3:abc", from: "+13125550001", to: "+13125559999", status: "queued" } };
    const call = { from: "+13125550001", to: "+13125559999", urls };
    const { id, request } = await placeRecordedCall(adapter, credentials, answer, call);
    expect(id).toBe("v3:abc");
    expect(request?.url).toBe("https://api.telnyx.com/v2/texml/calls/1293384261075731499");
    expect(jsonBody(request)).toEqual({
      From: "+13125550001",
      To: "+13125559999",
      Url: urls.voiceUrl,
      UrlMethod: "POST",
      StatusCallback: urls.statusUrl,
      StatusCallbackMethod: "POST",
      StatusCallbackEvent: "initiated ringing answered completed",
      MachineDetection: "Enable",
    });
  });

  it("transfers, sends DTMF and hangs up with Call Control actions", async () => {
    const transfer = {
      providerCallId: "v3:abc",
      destination: "+13125558888",
      callerId: "+13125550001",
      statusUrl: urls.statusUrl,
    };
    const requests = await liveCallRequests(adapter, credentials, transfer, "1234#");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST https://api.telnyx.com/v2/calls/v3%3Aabc/actions/transfer",
      "POST https://api.telnyx.com/v2/calls/v3%3Aabc/actions/send_dtmf",
      "POST https://api.telnyx.com/v2/calls/v3%3Aabc/actions/hangup",
    ]);
    expect(jsonBody(requests[0])).toEqual({
      to: "+13125558888",
      from: "+13125550001",
      webhook_url: urls.statusUrl,
      webhook_url_method: "POST",
    });
    expect(jsonBody(requests[1])).toEqual({ digits: "1234#", duration_millis: 250 });
    expect(jsonBody(requests[2])).toEqual({});
  });
});

describe("Telnyx webhooks", () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  // The raw 32-byte key, base64, as the portal shows it: the last 32 bytes of the SPKI DER.
  const rawPublicKey = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64");
  const rawBody = "CallSid=v3%3Aabc&From=%2B13125559999&To=%2B13125550001&Direction=inbound&CallStatus=ringing";

  function signed(timestamp: string, payload = rawBody, key = privateKey): WebhookRequest {
    const signature = sign(null, Buffer.from(`${timestamp}|${payload}`), key).toString("base64");
    return {
      url: urls.voiceUrl,
      method: "POST",
      headers: { "telnyx-signature-ed25519": signature, "telnyx-timestamp": timestamp },
      rawBody: payload,
    };
  }

  it("accepts an Ed25519 signature over timestamp|body and refuses tampering, other keys and old timestamps", () => {
    const now = Math.floor(Date.now() / 1000);
    const { account } = testAccount({ ...credentials, public_key: rawPublicKey });
    expect(adapter.verifyWebhook(account, signed(String(now)))).toBe(true);
    expect(adapter.verifyWebhook(account, { ...signed(String(now)), rawBody: `${rawBody}&x=1` })).toBe(false);
    expect(
      adapter.verifyWebhook(account, signed(String(now), rawBody, generateKeyPairSync("ed25519").privateKey)),
    ).toBe(false);
    expect(adapter.verifyWebhook(account, signed(String(now - 3600)))).toBe(false);
    expect(adapter.verifyWebhook(testAccount(credentials).account, signed(String(now)))).toBe(false);
  });

  it("also takes the public key as PEM, checking the age against the given clock", () => {
    const pem = publicKey.export({ format: "pem", type: "spki" }).toString();
    const timestamp = "1700000000";
    expect(verifyTelnyxSignature(pem, signed(timestamp), 1_700_000_000_000)).toBe(true);
    expect(verifyTelnyxSignature(pem.replace(/\n/g, ""), signed(timestamp), 1_700_000_000_000)).toBe(true);
    expect(verifyTelnyxSignature("not a key", signed(timestamp), 1_700_000_000_000)).toBe(false);
  });

  it("reads TeXML and Call Control webhooks", () => {
    const request = { url: urls.voiceUrl, method: "POST" as const, headers: {}, rawBody };
    expect(adapter.parseIncomingCall(request)).toEqual({
      providerCallId: "v3:abc",
      from: "+13125559999",
      to: "+13125550001",
      direction: "inbound",
    });
    const status = (raw: string) => adapter.parseStatus({ ...request, rawBody: raw });
    expect(status("CallSid=v3%3Aabc&CallStatus=completed&CallDuration=17")).toEqual({
      providerCallId: "v3:abc",
      status: "completed",
      durationSeconds: 17,
      answeredBy: undefined,
    });
    expect(status(JSON.stringify({ CallSid: "v3:abc", CallStatus: "no-answer" }))?.status).toBe("no-answer");
    const hangup = {
      data: { event_type: "call.hangup", payload: { call_control_id: "v3:abc", hangup_cause: "user_busy" } },
    };
    expect(status(JSON.stringify(hangup))).toEqual({ providerCallId: "v3:abc", status: "busy" });
    const amd = {
      data: { event_type: "call.machine.detection.ended", payload: { call_control_id: "v3:abc", result: "machine" } },
    };
    expect(status(JSON.stringify(amd))?.answeredBy).toBe("machine");
    expect(status("nothing=here")).toBeNull();
  });

  it("answers with a bidirectional PCMU <Connect><Stream> and its parameters", () => {
    expect(adapter.answerWithStream(urls, { call_id: "c1" }).body).toMatchInlineSnapshot(
      `"<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://parley.example/api/v1/telephony/telnyx/stream" track="inbound_track" bidirectionalMode="rtp" bidirectionalCodec="PCMU" bidirectionalSamplingRate="8000"><Parameter name="call_id" value="c1"/></Stream></Connect></Response>"`,
    );
  });
});
