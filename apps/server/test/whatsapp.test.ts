import type { AddressInfo } from "node:net";
import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { callerSpeech, isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import {
  type DoubleNumber,
  startWhatsappDouble,
  type WhatsappDouble,
} from "@parley/engine/testing/telephony/whatsapp-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";

/** WhatsApp numbers: integrate against a local Cloud API double, the webhook handshake and signature, a voice call. */

const APP_SECRET = "meta-app-secret-for-tests";
const NUMBERS: DoubleNumber[] = [
  {
    phoneNumberId: "106540352242922",
    displayPhoneNumber: "+1 415-555-0100",
    verifiedName: "Parley Clinic",
    businessAccountId: "102290129340398",
    accessToken: "EAAG-good-token-1",
  },
  {
    phoneNumberId: "106540352242933",
    displayPhoneNumber: "+1 415-555-0111",
    verifiedName: "Parley Dental",
    businessAccountId: "102290129340399",
    accessToken: "EAAG-good-token-2",
  },
  {
    phoneNumberId: "106540352242944",
    displayPhoneNumber: "+1 415-555-0122",
    verifiedName: "Parley Vets",
    businessAccountId: "102290129340400",
    accessToken: "EAAG-good-token-3",
  },
  {
    phoneNumberId: "106540352242955",
    displayPhoneNumber: "+1 415-555-0133",
    verifiedName: "Parley Pharmacy",
    businessAccountId: "102290129340401",
    accessToken: "EAAG-good-token-4",
  },
  {
    phoneNumberId: "106540352242966",
    displayPhoneNumber: "+1 415-555-0144",
    verifiedName: "Parley Front Office",
    businessAccountId: "102290129340402",
    accessToken: "EAAG-good-token-5",
  },
];

let t: TestApp;
let double: WhatsappDouble;
let llm: ScriptedLlm;
let webhookUrl: string;

beforeAll(async () => {
  double = await startWhatsappDouble({ numbers: NUMBERS, appSecret: APP_SECRET });
  llm = await startScriptedLlm(() => ({ text: "We open at nine in the morning." }));
  t = await createTestApp({
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    WHATSAPP_GRAPH_API_URL: double.apiUrl,
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/telephony/whatsapp/webhook`;
});
afterAll(async () => {
  await t?.close();
  await double?.close();
  await llm?.close();
});

const integrate = (token: string, body: Record<string, unknown>) =>
  call(t, "POST", "/api/v1/phone-numbers/whatsapp/integrate", { token, body });

const bodyFor = (n: DoubleNumber, overrides: Record<string, unknown> = {}) => ({
  number: `+${n.displayPhoneNumber.replace(/\D/g, "")}`,
  access_token: n.accessToken,
  phone_number_id: n.phoneNumberId,
  business_account_id: n.businessAccountId,
  ...overrides,
});

describe("POST /phone-numbers/whatsapp/integrate", () => {
  it("verifies the credentials, subscribes the app and stores the number", async () => {
    const a = await signedInUser(t);
    const res = await integrate(a.token, bodyFor(NUMBERS[0] as DoubleNumber, { friendly_name: "Clinic line" }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.phone_number).toMatchObject({
      number: "+14155550100",
      country: "US",
      provider: "whatsapp",
      friendly_name: "Clinic line",
      whatsapp: { phone_number_id: "106540352242922", business_account_id: "102290129340398" },
    });
    expect(body.webhook.callback_url).toBe("http://localhost:5173/api/v1/telephony/whatsapp/webhook");
    expect(body.webhook.verify_token).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toContain("EAAG-good-token-1");
    expect(double.subscriptions).toContain("102290129340398");
    const listed = await call(t, "GET", "/api/v1/phone-numbers", { token: a.token });
    if (listed.statusCode === 200) {
      expect(listed.json().phone_numbers.map((p: { number: string }) => p.number)).toContain("+14155550100");
    }
    const again = await integrate(a.token, bodyFor(NUMBERS[0] as DoubleNumber));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(PHONE_NUMBER_TEXTS.duplicate);
  });

  it("answers each §8 text: number format, token, Phone Number ID, number mismatch", async () => {
    const a = await signedInUser(t);
    const n = NUMBERS[1] as DoubleNumber;
    const cases: [change: Record<string, string>, status: number, detail: string][] = [
      [{ number: "4155550111" }, 422, PHONE_NUMBER_TEXTS.whatsappInvalidNumber],
      [{ access_token: "EAAG-expired" }, 400, PHONE_NUMBER_TEXTS.whatsappInvalidToken],
      [{ phone_number_id: "999999999999" }, 400, PHONE_NUMBER_TEXTS.whatsappInvalidPhoneNumberId],
      [{ number: "+14155550199" }, 422, PHONE_NUMBER_TEXTS.whatsappInvalidNumber],
    ];
    for (const [change, status, detail] of cases) {
      const res = await integrate(a.token, bodyFor(n, change));
      expect(res.statusCode, JSON.stringify(change)).toBe(status);
      expect(res.json().detail, JSON.stringify(change)).toBe(detail);
    }
  });

  // Starts a server of its own: on a loaded machine that alone can take most of the default 30 s.
  it("answers 503 with the connectivity text when the Cloud API cannot be reached", { timeout: 120_000 }, async () => {
    const offline = await createTestApp({
      WHATSAPP_GRAPH_API_URL: "http://127.0.0.1:9/v23.0",
      PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    });
    try {
      const a = await signedInUser(offline);
      const res = await call(offline, "POST", "/api/v1/phone-numbers/whatsapp/integrate", {
        token: a.token,
        body: bodyFor(NUMBERS[1] as DoubleNumber),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toBe(PHONE_NUMBER_TEXTS.whatsappUnreachable);
    } finally {
      await offline.close();
    }
  });

  it("needs sign-in", async () => {
    expect(
      (await call(t, "POST", "/api/v1/phone-numbers/whatsapp/integrate", { body: bodyFor(NUMBERS[1] as DoubleNumber) }))
        .statusCode,
    ).toBe(401);
  });
});

describe("the webhook", () => {
  it("answers the verification handshake with hub.challenge for a stored verify token only", async () => {
    const a = await signedInUser(t);
    const res = await integrate(a.token, bodyFor(NUMBERS[1] as DoubleNumber));
    expect(res.statusCode).toBe(201);
    const { verify_token } = res.json().webhook;
    const ok = await double.verifyWebhook(webhookUrl, verify_token, "1158201444");
    expect(ok.status).toBe(200);
    expect(ok.responseBody).toBe("1158201444");
    expect(ok.responseType).toMatch(/^text\/plain/);
    expect((await double.verifyWebhook(webhookUrl, `${verify_token}x`)).status).toBe(403);
    expect((await double.verifyWebhook(webhookUrl, "14155550111.not-the-token-at-all")).status).toBe(403);
  });

  it("rejects a call to a number with no assistant", async () => {
    // NUMBERS[1] was integrated without an assistant by the handshake test above.
    const { call: phone, webhook } = await double.call({
      webhookUrl,
      phoneNumberId: (NUMBERS[1] as DoubleNumber).phoneNumberId,
      from: "+447700900789",
    });
    expect(webhook.status).toBe(200);
    await waitFor(
      () => (double.actions.some((x) => x.callId === phone.callId && x.action === "reject") ? true : undefined),
      "the reject action",
    );
    expect(double.actions.filter((x) => x.callId === phone.callId).map((x) => x.action)).toEqual(["reject"]);
  });

  it("refuses a call event whose X-Hub-Signature-256 is not the app's", async () => {
    const { call: forged, webhook } = await double.call({
      webhookUrl,
      phoneNumberId: (NUMBERS[1] as DoubleNumber).phoneNumberId,
      from: "+447700900123",
      speech: new Int16Array(320),
      signWith: "someone-elses-secret",
    });
    expect(webhook.status).toBe(403);
    expect(double.actions.filter((x) => x.callId === forged.callId)).toEqual([]);
    forged.terminated();
  });
});

/** True when the last `ms` of the audio are quiet. */
function endsInSilence(pcm: Int16Array, ms: number): boolean {
  const tail = pcm.subarray(Math.max(0, pcm.length - ms * 16));
  return pcm.length >= ms * 16 && !isNonSilent(tail, { minMs: 20 });
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A new user and their assistant `name`, which greets callers and answers with the scripted model. */
async function userWithGreeter(name: string) {
  const a = await signedInUser(t);
  const agent = await createAssistant(t, a.token, {
    name,
    first_message: "Hello from Parley.",
    llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
  });
  return { a, agent };
}

describe("a WhatsApp voice call", () => {
  it("answers with the number's assistant: non-silent speech back, a call log on the whatsapp channel", async () => {
    const { a, agent } = await userWithGreeter("Clinic");
    const n = NUMBERS[2] as DoubleNumber;
    const res = await integrate(a.token, bodyFor(n, { agent_id: agent }));
    expect(res.statusCode).toBe(201);

    const { call: phone, webhook } = await double.call({
      webhookUrl,
      phoneNumberId: n.phoneNumberId,
      from: "+447700900123",
      callerName: "Ada",
    });
    expect(webhook.status).toBe(200);
    await phone.accepted;
    const actionsOf = () => double.actions.filter((x) => x.callId === phone.callId).map((x) => [x.action, x.sdpType]);
    const actions = await waitFor(() => (actionsOf().length >= 2 ? actionsOf() : undefined), "accept");
    expect(actions.slice(0, 2)).toEqual([
      ["pre_accept", "answer"],
      ["accept", "answer"],
    ]);
    // The greeting, heard out before the caller speaks (as a person would).
    await waitFor(() => (isNonSilent(phone.heardPcm()) ? true : undefined), "the assistant's greeting");
    await waitFor(() => (endsInSilence(phone.heardPcm(), 800) ? true : undefined), "the end of the greeting");
    const before = phone.heardSamples();
    const asked = llm.requests.length;
    phone.say(callerSpeech("What are your opening hours?"));
    await waitFor(() => (llm.requests.length > asked ? true : undefined), "the caller's turn to reach the model");
    await waitFor(
      () => (isNonSilent(phone.heardPcm().subarray(before)) ? true : undefined),
      "the assistant's spoken answer",
    );
    await waitFor(
      () => (endsInSilence(phone.heardPcm().subarray(before), 800) ? true : undefined),
      "the end of the answer",
    );

    const logs = await waitFor(async () => {
      const list = (await call(t, "GET", "/api/v1/call-logs", { token: a.token })).json();
      const items = list.data ?? [];
      return items.length > 0 ? items : undefined;
    }, "the call log");
    const callId: string = logs[0].id;
    await phone.hangup();
    expect(phone.terminatedBy).toBe("user");
    const log = await waitFor(async () => {
      const body = (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: a.token })).json();
      return body.status === "completed" || body.status === "failed" ? body : undefined;
    }, "the call log to close");
    expect(log).toMatchObject({ channel: "whatsapp", direction: "inbound", agent_id: agent, status: "completed" });
    // The user ended it: Parley has nothing to terminate.
    expect(double.actions.filter((x) => x.callId === phone.callId).map((x) => x.action)).toEqual([
      "pre_accept",
      "accept",
    ]);
    const lines = log.transcript.map((l: { role: string; text: string }) => [l.role, l.text]);
    expect(lines[0]).toEqual(["assistant", "Hello from Parley."]);
    expect(lines).toContainEqual(["user", expect.stringMatching(/hours/i)]);
    expect(lines).toContainEqual(["assistant", "We open at nine in the morning."]);
  }, 120_000);

  it("answers a number given to a squad with the squad's first member (issue 31)", async () => {
    const { a, agent } = await userWithGreeter("Reception");
    const billing = await createAssistant(t, a.token, {
      name: "Billing",
      llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
    });
    const n = NUMBERS[4] as DoubleNumber;
    const integrated = await integrate(a.token, bodyFor(n));
    expect(integrated.statusCode).toBe(201);
    const squad = await call(t, "POST", "/api/v1/squads", {
      token: a.token,
      body: {
        name: "Front office",
        members: [
          { assistant_id: billing, name: "billing" },
          { assistant_id: agent, name: "reception", first: true },
        ],
        handoffs: [{ from: "reception", to: "billing", description: "The caller asks about an invoice." }],
      },
    });
    expect(squad.statusCode, squad.body).toBe(201);
    const given = await call(t, "PATCH", `/api/v1/phone-numbers/${integrated.json().phone_number.id}`, {
      token: a.token,
      body: { squad_id: squad.json().id },
    });
    expect(given.statusCode, given.body).toBe(200);
    const { call: phone } = await double.call({ webhookUrl, phoneNumberId: n.phoneNumberId, from: "+447700900777" });
    await phone.accepted;
    await waitFor(() => (isNonSilent(phone.heardPcm()) ? true : undefined), "the first member's greeting");
    await waitFor(() => (endsInSilence(phone.heardPcm(), 800) ? true : undefined), "the end of the greeting");
    const callId: string = await waitFor(async () => {
      const list = (await call(t, "GET", "/api/v1/call-logs", { token: a.token })).json();
      return list.data?.[0]?.id;
    }, "the call log");
    await phone.hangup();
    const log = await waitFor(async () => {
      const body = (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: a.token })).json();
      return body.status === "completed" || body.status === "failed" ? body : undefined;
    }, "the call log to close");
    expect(log).toMatchObject({ channel: "whatsapp", agent_id: agent, status: "completed" });
    expect(log.transcript[0]).toMatchObject({ role: "assistant", text: "Hello from Parley." });
  }, 120_000);

  it("hangs up the WhatsApp call when the caller is removed from the live monitor", async () => {
    const { a, agent } = await userWithGreeter("Desk");
    const n = NUMBERS[3] as DoubleNumber;
    expect((await integrate(a.token, bodyFor(n, { agent_id: agent }))).statusCode).toBe(201);
    const { call: phone } = await double.call({ webhookUrl, phoneNumberId: n.phoneNumberId, from: "+447700900456" });
    await phone.accepted;
    await waitFor(() => (isNonSilent(phone.heardPcm()) ? true : undefined), "the assistant's greeting");
    const rooms = (await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token })).json().rooms;
    expect(rooms).toHaveLength(1);
    const caller = rooms[0].participants.find((p: { kind: string }) => p.kind === "caller");
    expect(caller).toMatchObject({ identity: "caller-447700900456" });
    const removed = await call(
      t,
      "POST",
      `/api/v1/agents/room/${rooms[0].name}/remove_participant?participant_identity=${caller.identity}`,
      { token: a.token },
    );
    expect(removed.statusCode).toBeLessThan(300);
    await waitFor(
      () => (double.actions.some((x) => x.callId === phone.callId && x.action === "terminate") ? true : undefined),
      "Parley's terminate",
    );
    expect(phone.terminatedBy).toBe("business");
  }, 120_000);
});
