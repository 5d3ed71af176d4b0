import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallLog, PhoneNumber, Squad } from "@parley/contract";
import { loadTelephony, type NetworkDeps } from "@parley/engine";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import type { FakeTtsServer } from "@parley/engine/testing/vendor-servers/fake-tts-http";
import { startFakeDeepgramSpeak } from "@parley/engine/testing/vendor-servers/fake-tts-vendors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber, webhookUrlsFor } from "../src/modules/phone-numbers/service.ts";
import { accountOf } from "../src/modules/telephony/account.ts";
import { call, signedInUser, type TestApp } from "./harness.ts";
import { AudioGapMeter } from "./support/audio-gaps.ts";
import { createAssistant } from "./support/calls.ts";
import { closedCallLog, connectRealtime, startListeningApp } from "./support/realtime-calls.ts";
import { type ChatRequestBody, lastUserText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { until } from "./support/until.ts";

/**
 * Issue 31's acceptance, over the real call paths (a browser's realtime socket and a Twilio media
 * stream against the Twilio double) with the model, voice and carrier doubles: the receptionist
 * hands the caller to billing on "I have a question about my invoice", billing hands back; the
 * voice changes (the voice double hears other voice ids), the transcript runs on, the call log has
 * three segments with their reasons, and the caller hears no gap over a second at a hand-off.
 */

const RECEPTIONIST_VOICE = "aura-2-thalia-en";
const BILLING_VOICE = "aura-2-orion-en";
const INVOICE = "I have a question about my invoice";
const DONE = "Thanks, that's all about my invoice";
const TO_BILLING = "The caller has a question about an invoice.";
const BACK = "The invoice question is answered.";
const SUMMARY = "The caller wants to talk about an invoice.";
const DEEPGRAM_KEY = "dg-squads-test";
const NUMBER = "+14155550170";
const TWILIO = { sid: "AC5a0a5a0a5a0a5a0a5a0a5a0a5a0a5a0a", token: "squads-twilio-token" };

/** The model: the receptionist hands invoices to billing, billing hands back when the caller is done. */
function script(request: ChatRequestBody) {
  const system = request.messages[0]?.content ?? "";
  if (system.startsWith("You summarise a phone call")) return { text: SUMMARY };
  const said = lastUserText(request).toLowerCase();
  const offered = (name: string) => request.tools?.some((t) => t.function.name === name) === true;
  if (system.includes("You are the billing specialist.")) {
    if (said.includes("that's all") && offered("handoff_to_receptionist"))
      return { toolCall: { name: "handoff_to_receptionist", arguments: JSON.stringify({ reason: BACK }) } };
    return { text: "Billing here, I can see your invoice." };
  }
  if (said.includes("invoice") && !said.includes("that's all") && offered("handoff_to_billing"))
    return { toolCall: { name: "handoff_to_billing", arguments: JSON.stringify({ reason: TO_BILLING }) } };
  if (system.includes("taking over this call from billing")) return { text: "Welcome back to the front desk." };
  return { text: "Happy to help." };
}

let t: TestApp;
let llm: ScriptedLlm;
let voice: FakeTtsServer;
let twilio: TwilioDouble;
let token: string;
let workspaceId: string;
let squad: Squad;

/** The app's network with Deepgram's speech host routed to the voice double. */
function routeDeepgram(base: NetworkDeps, origin: string): NetworkDeps {
  return {
    ...base,
    fetch: ((input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith("https://api.deepgram.com/v1/speak")) return base.fetch(input, init);
      return base.fetch(url.replace(/^https:\/\/api\.deepgram\.com/, origin), init);
    }) as typeof fetch,
  };
}

/** The voice id and text of every sentence the voice double was asked to say, from `from` on. */
function spoken(from = 0): { voice: string | null; text: string }[] {
  return voice.requests.slice(from).map((r) => ({
    voice: r.url.searchParams.get("model"),
    text: String((JSON.parse(r.body.toString() || "{}") as { text?: string }).text ?? ""),
  }));
}

beforeAll(async () => {
  llm = await startScriptedLlm(script);
  voice = await startFakeDeepgramSpeak({ apiKey: DEEPGRAM_KEY });
  // The double holds its first answer until released; released, it answers every sentence at once.
  voice.release();
  twilio = await startTwilioDouble({ accounts: [{ sid: TWILIO.sid, token: TWILIO.token, numbers: [NUMBER] }] });
  t = await startListeningApp();
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.ctx.network = routeDeepgram(t.ctx.network, voice.baseUrl);
  const user = await signedInUser(t);
  ({ token, workspaceId } = user);
  for (const [provider, credentials] of [
    ["deepgram", { api_key: DEEPGRAM_KEY }],
    ["twilio", { account_sid: TWILIO.sid, auth_token: TWILIO.token, base_url: twilio.origin }],
  ] as const) {
    const saved = await call(t, "PUT", `/api/v1/integrations/${provider}`, { token, body: { credentials } });
    if (saved.statusCode !== 200) throw new Error(`saving ${provider} failed: ${saved.body}`);
  }
  const member = (name: string, prompt: string, voiceId: string, dtmf: Record<string, string>) =>
    createAssistant(t, token, {
      name,
      system_prompt: prompt,
      first_message: "Front desk, how can I help?",
      llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
      tts_provider: "deepgram",
      tts_provider_config: { model: "aura-2", voice: voiceId },
      dtmf_enabled: true,
      dtmf_mapping: dtmf,
    });
  const receptionist = await member("Receptionist", "You are the receptionist.", RECEPTIONIST_VOICE, {
    "1": INVOICE,
  });
  const billing = await member("Billing", "You are the billing specialist.", BILLING_VOICE, { "2": DONE });
  const created = await call(t, "POST", "/api/v1/squads", {
    token,
    body: {
      name: "Front office",
      members: [
        { assistant_id: receptionist, name: "receptionist", first: true },
        { assistant_id: billing, name: "billing" },
      ],
      handoffs: [
        {
          from: "receptionist",
          to: "billing",
          description: "The caller asks about an invoice or a payment.",
          context: { mode: "summary" },
        },
        { from: "billing", to: "receptionist", description: "The caller's billing question is answered." },
      ],
      bridge_line: "Let me pass you on.",
    },
  });
  if (created.statusCode !== 201) throw new Error(`creating the squad failed: ${created.body}`);
  squad = created.json<Squad>();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await twilio?.close();
  await voice?.close();
  await llm?.close();
});

/** The three stretches of the call, in order, with why each began. */
function expectThreeSegments(log: CallLog) {
  const segments = log.segments ?? [];
  expect(segments.map((s) => [s.member, s.from_member, s.reason])).toEqual([
    ["receptionist", null, null],
    ["billing", "receptionist", TO_BILLING],
    ["receptionist", "billing", BACK],
  ]);
  // Back to back: each stretch starts where the one before ended, and the last runs to the end.
  expect(segments[1]?.started_at_ms).toBe(segments[0]?.ended_at_ms);
  expect(segments[2]?.started_at_ms).toBe(segments[1]?.ended_at_ms);
  for (const segment of segments) expect(segment.cost).toBeGreaterThan(0);
  expect(segments[1]?.turns).toBeGreaterThanOrEqual(1);
  // The call's cost is its stretches' (to rounding).
  const sum = segments.reduce((n, s) => n + s.cost, 0);
  expect(Math.abs(sum - log.cost)).toBeLessThan(1e-4);
  expect(log.events.filter((e) => e.type === "handoff").map((e) => e.type === "handoff" && [e.from, e.to])).toEqual([
    ["receptionist", "billing"],
    ["billing", "receptionist"],
  ]);
}

/**
 * One conversation's words, in order, whoever said them, and their times never go back. On the phone
 * the caller's lines are key presses (mapped to those lines), logged as keys rather than words.
 */
function expectContinuousTranscript(log: CallLog, caller: "typed" | "keys") {
  const times = log.transcript.map((l) => l.at_ms);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  const words = log.transcript.map((l) => `${l.role}: ${l.text}`).join("\n");
  const order = [
    "Front desk, how can I help?",
    ...(caller === "typed" ? [INVOICE] : []),
    "Let me pass you on.",
    "Billing here, I can see your invoice.",
    ...(caller === "typed" ? [DONE] : []),
    "Let me pass you on.",
    "Welcome back to the front desk.",
  ];
  let at = -1;
  for (const line of order) {
    const next = words.indexOf(line, at + 1);
    expect(next, `"${line}" after position ${at} in:\n${words}`).toBeGreaterThan(at);
    at = next;
  }
  if (caller === "keys")
    expect(log.events.flatMap((e) => (e.type === "dtmf" && e.direction === "in" ? [e.digits] : []))).toEqual([
      "1",
      "2",
    ]);
}

/** The voice ids the caller heard, sentence by sentence: the receptionist's, billing's, the receptionist's. */
function expectVoices(from: number) {
  expect(spoken(from)).toEqual([
    { voice: RECEPTIONIST_VOICE, text: "Front desk, how can I help?" },
    { voice: RECEPTIONIST_VOICE, text: "Let me pass you on." },
    { voice: BILLING_VOICE, text: "Billing here, I can see your invoice." },
    { voice: BILLING_VOICE, text: "Let me pass you on." },
    { voice: RECEPTIONIST_VOICE, text: "Welcome back to the front desk." },
  ]);
}

describe("a squad's call (issue 31)", () => {
  it("hands a browser call to billing and back, with the voice, transcript, segments and no gap over 1 s", async () => {
    // A workspace webhook that hears call.handoff, signed like every event.
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const endpoint = await call(t, "POST", "/api/v1/webhooks", {
      token,
      body: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, events: ["call.handoff"] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const { secret } = endpoint.json<{ secret: string }>();
    const handoffs: unknown[] = [];
    const off = t.ctx.events.on("call.handoff", (e) => void handoffs.push(e));
    const before = voice.requests.length;
    const started = await call(t, "POST", `/api/v1/squads/${squad.id}/call`, { token, body: {} });
    expect(started.statusCode, started.body).toBe(201);
    const { room, call_id: callId } = started.json<{ room: { name: string }; call_id: string }>();
    const query = new URLSearchParams({ room_name: room.name, user_identity: "caller", name: "Tess" });
    const grant = await call(t, "GET", `/api/v1/agents/room/generate_room_token?${query}`, { token });
    const client = await connectRealtime(t, grant.json<{ accessToken: string }>().accessToken);
    const ear = new AudioGapMeter(client.socket);
    const assistantSaid = (text: string) =>
      client.until(
        () =>
          client.messages.some((m) => m.type === "transcript" && m.role === "assistant" && m.final && m.text === text),
        `the assistant to say "${text}"`,
        30_000,
      );
    await assistantSaid("Front desk, how can I help?");

    const asked = ear.now();
    client.send({ type: "text", text: INVOICE });
    await assistantSaid("Billing here, I can see your invoice.");
    const billingAt = ear.messageAt(
      (m) => m.type === "transcript" && m.text === "Billing here, I can see your invoice.",
    );
    const firstGap = ear.longestGap(ear.firstSoundAfter(asked) ?? asked, billingAt ?? ear.now());

    const done = ear.now();
    client.send({ type: "text", text: DONE });
    await assistantSaid("Welcome back to the front desk.");
    const backAt = ear.messageAt((m) => m.type === "transcript" && m.text === "Welcome back to the front desk.");
    const secondGap = ear.longestGap(ear.firstSoundAfter(done) ?? done, backAt ?? ear.now());
    client.send({ type: "hangup" });
    await client.closed;
    off();

    // The gaps run from the first sound after the caller's line to the next assistant's first
    // sentence starting: the bridge line, the summary and the next model and voice are inside.
    expect(firstGap.ms - firstGap.starvedMs).toBeLessThan(1000);
    expect(secondGap.ms - secondGap.starvedMs).toBeLessThan(1000);
    expectVoices(before);
    const log = await closedCallLog(t, token, callId);
    expect(log.status).toBe("completed");
    expectThreeSegments(log);
    expectContinuousTranscript(log, "typed");
    // Billing was given the receptionist model's summary, not the transcript.
    const billingFirst = llm.requests.find((r) => r.messages[0]?.content?.includes("You are the billing specialist."));
    expect(billingFirst?.messages[0]?.content).toContain(`Summary of the call so far: ${SUMMARY}`);
    expect(handoffs).toHaveLength(2);
    const delivered = await until(
      async () => received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }),
      (events) => events.length >= 2,
      "two call.handoff deliveries",
    );
    expect(delivered.map((e) => [e.type, e.data.call_id, e.data.from, e.data.to, e.data.reason])).toEqual([
      ["call.handoff", callId, "receptionist", "billing", TO_BILLING],
      ["call.handoff", callId, "billing", "receptionist", BACK],
    ]);
    for (const { headers, body } of received) {
      const signed = createHmac("sha256", secret).update(`${headers["x-parley-timestamp"]}.${body}`).digest("hex");
      expect(headers["x-parley-signature"]).toBe(`sha256=${signed}`);
    }
    await new Promise((resolve) => hook.close(resolve));
    // The browser hears who speaks now.
    expect(client.messages.filter((m) => m.type === "handoff").map((m) => m.to)).toEqual(["billing", "receptionist"]);
  }, 90_000);

  it("answers a number pointed at the squad with its first member, over a Twilio media stream", async () => {
    const adapter = await loadTelephony("twilio");
    if (!adapter) throw new Error("no Twilio adapter");
    const account = await accountOf(t.ctx, { workspaceId, provider: "twilio" });
    if (!account) throw new Error("no Twilio account");
    const listed = (await adapter.listNumbers(account)).find((n) => n.number === NUMBER);
    if (!listed) throw new Error("the double does not list the number");
    await adapter.configureNumber(account, listed, webhookUrlsFor(t.config.publicUrl, "twilio"));
    const record = await insertPhoneNumber(
      t.ctx.db,
      { workspaceId },
      { number: NUMBER, provider: "twilio", providerNumberId: listed.providerNumberId, friendlyName: "Front office" },
    );
    const pointed = await call(t, "PATCH", `/api/v1/phone-numbers/${record.id}`, {
      token,
      body: { squad_id: squad.id },
    });
    expect(pointed.statusCode, pointed.body).toBe(200);
    expect(pointed.json<PhoneNumber>()).toMatchObject({
      squad_id: squad.id,
      squad_name: "Front office",
      agent_id: null,
    });

    const before = voice.requests.length;
    const handle = await twilio.ringInbound(NUMBER, "+14155559999");
    expect(handle.voice.status).toBe(200);
    const leg = await handle.stream();
    // The caller's ear: when audio with sound in it arrived (silence comes only as keepalives).
    const heard: number[] = [];
    let seen = 0;
    const ear = setInterval(() => {
      const audio = leg.received();
      const fresh = audio.subarray(seen);
      seen = audio.length;
      for (let i = 0; i + 320 <= fresh.length; i += 320) {
        let sum = 0;
        for (let j = i; j < i + 320; j += 1) sum += (fresh[j] ?? 0) ** 2;
        if (Math.sqrt(sum / 320) >= 100) {
          heard.push(performance.now());
          break;
        }
      }
    }, 20);
    const said = (text: string) =>
      until(
        async () => spoken(before).some((s) => s.text === text),
        (yes) => yes,
        `the voice to be asked for "${text}"`,
      );
    const longestGap = (from: number, to: number) => {
      const times = [from, ...heard.filter((at) => at > from && at < to), to];
      return Math.max(...times.slice(1).map((at, i) => at - (times[i] ?? at)));
    };
    // A sentence asked of the voice has been heard to its end: sound after it was asked, then 400 ms
    // of quiet. The caller presses the next key only then, so no key cuts a sentence short.
    const heardToTheEnd = async (text: string) => {
      await said(text);
      const asked = performance.now();
      await leg.waitFor(
        () => (heard.at(-1) ?? 0) > asked && performance.now() - (heard.at(-1) ?? 0) > 400,
        `"${text}" heard to its end`,
      );
      return heard.at(-1) ?? asked;
    };
    try {
      await heardToTheEnd("Front desk, how can I help?");
      leg.pressKeys("1");
      const asked = performance.now();
      const billingHeard = await heardToTheEnd("Billing here, I can see your invoice.");
      leg.pressKeys("2");
      const done = performance.now();
      await heardToTheEnd("Welcome back to the front desk.");
      // The first sound after each key press is the bridge line's; from there to the next voice.
      const firstAfter = (from: number) => heard.find((at) => at > from) ?? from;
      expect(longestGap(firstAfter(asked), billingHeard)).toBeLessThan(1000);
      expect(longestGap(firstAfter(done), heard.at(-1) ?? performance.now())).toBeLessThan(1000);
    } finally {
      clearInterval(ear);
    }
    await handle.hangup();
    expectVoices(before);
    const res = await call(t, "GET", "/api/v1/call-logs", { token });
    const callId = res.json<{ data: { id: string; channel: string }[] }>().data.find((c) => c.channel === "phone")?.id;
    if (!callId) throw new Error("no phone call in the log");
    const log = await closedCallLog(t, token, callId);
    expect(log).toMatchObject({ channel: "phone", status: "completed", to_number: NUMBER });
    expectThreeSegments(log);
    expectContinuousTranscript(log, "keys");
  }, 120_000);

  it("starts a widget's call at its squad's first member, and hands it to billing", async () => {
    const shop = "https://shop.example.com";
    const receptionist = squad.members.find((m) => m.first)?.assistant_id as string;
    const created = await call(t, "POST", "/api/v1/call-widgets", {
      token,
      body: { name: "Shop", assistant_id: receptionist, squad_id: squad.id, allowed_origins: [shop] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const widget = created.json<{ public_key: string; squad_id: string }>();
    expect(widget.squad_id).toBe(squad.id);
    const started = await t.app.inject({
      method: "POST",
      url: `/api/v1/widget/${widget.public_key}/calls`,
      headers: { origin: shop },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { call_id: callId, access_token: grant } = started.json<{ call_id: string; access_token: string }>();
    const client = await connectRealtime(t, grant, { origin: shop });
    const said = (text: string) =>
      client.until(
        () =>
          client.messages.some((m) => m.type === "transcript" && m.role === "assistant" && m.final && m.text === text),
        `the assistant to say "${text}"`,
        30_000,
      );
    await said("Front desk, how can I help?");
    client.send({ type: "text", text: INVOICE });
    await said("Billing here, I can see your invoice.");
    client.send({ type: "hangup" });
    await client.closed;
    const log = await closedCallLog(t, token, callId);
    expect(log.channel).toBe("widget");
    expect(log.segments?.map((s) => [s.member, s.reason])).toEqual([
      ["receptionist", null],
      ["billing", TO_BILLING],
    ]);
  }, 90_000);
});
