import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { placeRecordedCall, testAccount, webhookUrls } from "../../../testing/telephony/recording-fetch.ts";
import { TelephonyError, type WebhookRequest } from "../../telephony/types.ts";
import twilio from "./index.ts";

const adapter = twilio.telephony;
const credentials = { account_sid: "AC123", auth_token: "secret-token" };
const urls = webhookUrls("twilio");
const API = "https://api.twilio.com/2010-04-01/Accounts/AC123";
const basic = `Basic ${Buffer.from("AC123:secret-token").toString("base64")}`;

describe("Twilio numbers", () => {
  it("lists incoming numbers across pages with basic auth", async () => {
    const { account, requests } = testAccount(credentials, (request) =>
      request.url.includes("PageToken")
        ? { json: { incoming_phone_numbers: [{ sid: "PN2", phone_number: "+15550000002", friendly_name: "" }] } }
        : {
            json: {
              incoming_phone_numbers: [{ sid: "PN1", phone_number: "+15550000001", friendly_name: "Sales" }],
              next_page_uri: "/2010-04-01/Accounts/AC123/IncomingPhoneNumbers.json?PageSize=1000&Page=1&PageToken=PA1",
            },
          },
    );
    const numbers = await adapter.listNumbers(account);
    expect(numbers).toEqual([
      { number: "+15550000001", providerNumberId: "PN1", friendlyName: "Sales", country: null },
      { number: "+15550000002", providerNumberId: "PN2", friendlyName: "+15550000002", country: null },
    ]);
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ["GET", `${API}/IncomingPhoneNumbers.json?PageSize=1000`],
      ["GET", `${API}/IncomingPhoneNumbers.json?PageSize=1000&Page=1&PageToken=PA1`],
    ]);
    expect(requests[0]?.headers.authorization).toBe(basic);
  });

  it("aims every request at the base_url credential when there is one", async () => {
    const { account, requests } = testAccount({ ...credentials, base_url: "http://127.0.0.1:9999/" });
    await adapter.listNumbers(account);
    expect(requests[0]?.url).toBe(
      "http://127.0.0.1:9999/2010-04-01/Accounts/AC123/IncomingPhoneNumbers.json?PageSize=1000",
    );
  });

  it("reports refused keys as a credentials error", async () => {
    const { account } = testAccount(credentials, () => ({
      status: 401,
      json: { code: 20003, message: "Authenticate" },
    }));
    const error = await adapter.listNumbers(account).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({ kind: "credentials", status: 401 });
  });

  it("points a number's voice and status webhooks at Parley", async () => {
    const { account, requests } = testAccount(credentials);
    await adapter.configureNumber(
      account,
      { number: "+15550000001", providerNumberId: "PN1", friendlyName: "", country: null },
      urls,
    );
    expect(requests[0]?.method).toBe("POST");
    expect(requests[0]?.url).toBe(`${API}/IncomingPhoneNumbers/PN1.json`);
    expect(requests[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(requests[0]?.body))).toEqual({
      VoiceUrl: urls.voiceUrl,
      VoiceMethod: "POST",
      StatusCallback: urls.statusUrl,
      StatusCallbackMethod: "POST",
    });
  });
});

describe("Twilio calls", () => {
  it("places a call with status events and machine detection", async () => {
    const call = { from: "+15550000001", to: "+15551112222", urls };
    const { id: sid, request } = await placeRecordedCall(
      adapter,
      credentials,
      { status: 201, json: { sid: "CA9" } },
      call,
    );
    expect(sid).toBe("CA9");
    expect(request?.url).toBe(`${API}/Calls.json`);
    const form = new URLSearchParams(request?.body);
    expect(form.get("From")).toBe("+15550000001");
    expect(form.get("To")).toBe("+15551112222");
    expect(form.get("Url")).toBe(urls.voiceUrl);
    expect(form.get("StatusCallback")).toBe(urls.statusUrl);
    expect(form.getAll("StatusCallbackEvent")).toEqual(["initiated", "ringing", "answered", "completed"]);
    expect(form.get("MachineDetection")).toBe("Enable");
  });

  it("finds a call it was asked to place by its ends and creation time, in Twilio's call list", async () => {
    const row = (sid: string, created: string, to = "+15551112222") => ({
      sid,
      to,
      from: "+15550000001",
      date_created: created,
    });
    const { account, requests } = testAccount(credentials, () => ({
      status: 200,
      json: {
        calls: [
          row("CAold", "Fri, 27 Nov 2026 09:00:00 +0000"),
          row("CAnew", "Fri, 27 Nov 2026 10:00:03 +0000"),
          row("CAother", "Fri, 27 Nov 2026 10:00:04 +0000", "+15559999999"),
        ],
      },
    }));
    const query = { from: "+15550000001", to: "+15551112222", since: new Date("2026-11-27T10:00:00Z") };
    expect(await adapter.findCall?.(account, query)).toBe("CAnew");
    const asked = new URL(requests[0]?.url ?? "");
    expect(`${asked.origin}${asked.pathname}`).toBe(`${API}/Calls.json`);
    expect(asked.searchParams.get("To")).toBe("+15551112222");
    expect(asked.searchParams.get("From")).toBe("+15550000001");
    expect(await adapter.findCall?.(account, { ...query, since: new Date("2026-11-27T11:00:00Z") })).toBeNull();
  });

  it("transfers with <Dial> to a number or a SIP URI", async () => {
    const { account, requests } = testAccount(credentials);
    await adapter.transfer(account, {
      providerCallId: "CA9",
      destination: "+15553334444",
      callerId: "+15550000001",
      statusUrl: urls.statusUrl,
    });
    await adapter.transfer(account, {
      providerCallId: "CA9",
      destination: "sip:desk@pbx.example",
      callerId: "+15550000001",
      statusUrl: urls.statusUrl,
    });
    expect(requests[0]?.url).toBe(`${API}/Calls/CA9.json`);
    expect(new URLSearchParams(requests[0]?.body).get("Twiml")).toMatchInlineSnapshot(
      `"<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="+15550000001"><Number statusCallback="https://parley.example/api/v1/telephony/twilio/status" statusCallbackEvent="initiated ringing answered completed" statusCallbackMethod="POST">+15553334444</Number></Dial></Response>"`,
    );
    expect(new URLSearchParams(requests[1]?.body).get("Twiml")).toContain("<Sip ");
    expect(new URLSearchParams(requests[1]?.body).get("Twiml")).toContain(">sip:desk@pbx.example</Sip>");
  });

  it("warm-transfers through a conference: hold, dial the human to a stream, join", async () => {
    const conference = adapter.conference;
    if (!conference) throw new Error("Twilio has conferences");
    expect(adapter.features.warmTransfer).toBe(true);
    const { account, requests } = testAccount(credentials, (request) =>
      request.method === "GET" ? { json: { sid: "CA7", status: "busy" } } : { json: { sid: "CA7" } },
    );
    await conference.holdInConference(account, { providerCallId: "CA9", conference: "parley-1" });
    const human = await conference.dialForBriefing(account, {
      from: "+15550000001",
      to: "+15553334444",
      streamUrl: urls.streamUrl,
      parameters: { briefing: "b1" },
      statusUrl: urls.statusUrl,
      timeoutSeconds: 30,
    });
    await conference.joinConference(account, { providerCallId: human, conference: "parley-1" });
    expect(await conference.callStatus(account, human)).toBe("busy");
    await conference.sayAndHangup(account, "CA9", "Goodbye.");
    expect(human).toBe("CA7");
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ["POST", `${API}/Calls/CA9.json`],
      ["POST", `${API}/Calls.json`],
      ["POST", `${API}/Calls/CA7.json`],
      ["GET", `${API}/Calls/CA7.json`],
      ["POST", `${API}/Calls/CA9.json`],
    ]);
    const twiml = (i: number) => new URLSearchParams(requests[i]?.body).get("Twiml");
    expect(twiml(0)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial><Conference startConferenceOnEnter="false" endConferenceOnExit="true" beep="false">parley-1</Conference></Dial></Response>',
    );
    const dial = new URLSearchParams(requests[1]?.body);
    expect(dial.get("To")).toBe("+15553334444");
    expect(dial.get("Timeout")).toBe("30");
    expect(dial.get("Twiml")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://parley.example/api/v1/telephony/twilio/stream"><Parameter name="briefing" value="b1"/></Stream></Connect></Response>',
    );
    expect(twiml(2)).toContain('<Conference startConferenceOnEnter="true" endConferenceOnExit="true" beep="false">');
    expect(twiml(4)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Say>Goodbye.</Say><Hangup/></Response>');
  });

  it("sends DTMF with <Play digits> and reopens the same stream", async () => {
    const { account, requests } = testAccount(credentials);
    await adapter.sendDtmf(account, "CA9", "12#", { urls, parameters: { call_id: "c1" } });
    expect(new URLSearchParams(requests[0]?.body).get("Twiml")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Play digits="12#"/><Connect><Stream url="wss://parley.example/api/v1/telephony/twilio/stream"><Parameter name="call_id" value="c1"/></Stream></Connect></Response>',
    );
    await expect(adapter.sendDtmf(account, "CA9", "12", undefined)).rejects.toThrow(TelephonyError);
    await expect(adapter.sendDtmf(account, "CA9", "1<", { urls, parameters: {} })).rejects.toThrow(TelephonyError);
  });

  it("hangs up by completing the call", async () => {
    const { account, requests } = testAccount(credentials);
    await adapter.hangup(account, "CA9");
    expect(requests[0]?.url).toBe(`${API}/Calls/CA9.json`);
    expect(requests[0]?.body).toBe("Status=completed");
  });
});

describe("Twilio webhooks", () => {
  const form = "CallSid=CA1&From=%2B15551112222&To=%2B15550000001&Direction=inbound&CallStatus=ringing";

  /** The documented algorithm: HMAC-SHA1 over the URL and the sorted name+value pairs, base64. */
  function sign(url: string, body: string, token = "secret-token") {
    const params = [...new URLSearchParams(body)].sort(([a], [b]) => (a < b ? -1 : 1));
    const data = url + params.map(([k, v]) => k + v).join("");
    return createHmac("sha1", token).update(data).digest("base64");
  }
  const request = (signature: string): WebhookRequest => ({
    url: urls.voiceUrl,
    method: "POST",
    headers: { "X-Twilio-Signature": signature },
    rawBody: form,
  });

  it("accepts the documented signature and refuses any other", () => {
    const { account } = testAccount(credentials);
    expect(adapter.verifyWebhook(account, request(sign(urls.voiceUrl, form)))).toBe(true);
    expect(adapter.verifyWebhook(account, request(sign(urls.voiceUrl, form, "other")))).toBe(false);
    expect(adapter.verifyWebhook(account, request(""))).toBe(false);
  });

  it("matches Twilio's published example signature", () => {
    // From https://www.twilio.com/docs/usage/security#validating-requests
    const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    const body = "CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030&To=%2B18005551212";
    const { account } = testAccount({ account_sid: "AC1", auth_token: "12345" });
    const signed: WebhookRequest = {
      url,
      method: "POST",
      headers: { "x-twilio-signature": sign(url, body, "12345") },
      rawBody: body,
    };
    expect(sign(url, body, "12345")).toBe("0/KCTR6DLpKmkAf8muzZqo1nDgQ=");
    expect(adapter.verifyWebhook(account, signed)).toBe(true);
  });

  it("reads the incoming call and status callbacks", () => {
    expect(adapter.parseIncomingCall(request(""))).toEqual({
      providerCallId: "CA1",
      from: "+15551112222",
      to: "+15550000001",
      direction: "inbound",
    });
    const status = (body: string) => adapter.parseStatus({ ...request(""), rawBody: body });
    expect(status("CallSid=CA1&CallStatus=completed&CallDuration=42")).toEqual({
      providerCallId: "CA1",
      status: "completed",
      durationSeconds: 42,
      answeredBy: undefined,
    });
    expect(status("CallSid=CA1&CallStatus=in-progress&AnsweredBy=machine_end_beep")?.answeredBy).toBe("machine");
    expect(status("CallSid=CA1&CallStatus=initiated")?.status).toBe("queued");
    expect(status("CallSid=CA1")).toBeNull();
  });

  it("answers with <Connect><Stream> and its parameters", () => {
    const answer = adapter.answerWithStream(urls, { call_id: "c1", note: 'a "quoted" & <odd> value' });
    expect(answer.contentType).toBe("text/xml");
    expect(answer.body).toMatchInlineSnapshot(
      `"<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://parley.example/api/v1/telephony/twilio/stream"><Parameter name="call_id" value="c1"/><Parameter name="note" value="a &quot;quoted&quot; &amp; &lt;odd&gt; value"/></Stream></Connect></Response>"`,
    );
  });
});
