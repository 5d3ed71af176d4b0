import type { CallLog, Squad } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { type ChatRequestBody, lastUserText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { callerScenario } from "./support/sip-scenarios.ts";
import { MediaProbe, runSipp, sdpFor } from "./support/sipp.ts";

/**
 * A SIP trunk number answered by a squad (issue 31): the call starts at the squad's first member,
 * is handed to billing and back on the caller's keys, and its log has the three segments.
 */

/** Speech, not comfort noise: μ-law silence decodes to a few units, espeak's voice to thousands. */
const SPEECH_PEAK = 2000;
const NUMBER = "+14155550180";
const TO_BILLING = "The caller has a question about an invoice.";
const BACK = "The invoice question is answered.";

function script(request: ChatRequestBody) {
  const system = request.messages[0]?.content ?? "";
  const said = lastUserText(request).toLowerCase();
  const offered = (name: string) => request.tools?.some((t) => t.function.name === name) === true;
  if (said.includes("goodbye")) return { toolCall: { name: "end_call", arguments: "{}" } };
  if (system.includes("You are the billing specialist.")) {
    if (said.includes("that's all") && offered("handoff_to_receptionist"))
      return { toolCall: { name: "handoff_to_receptionist", arguments: JSON.stringify({ reason: BACK }) } };
    return { text: "Billing here, I can see your invoice." };
  }
  if (system.includes("taking over this call from billing")) return { text: "Welcome back to the front desk." };
  if (said === "i have a question about my invoice" && offered("handoff_to_billing"))
    return { toolCall: { name: "handoff_to_billing", arguments: JSON.stringify({ reason: TO_BILLING }) } };
  return { text: "Happy to help." };
}

let llm: ScriptedLlm;
let sip: SipApp;
let t: TestApp;
let squad: Squad;

/** Whether the model was asked to answer as the assistant whose prompt says `prompt`, after `from` requests. */
const askedAs = (prompt: string, from: number) =>
  llm.requests.slice(from).some((r) => (r.messages[0]?.content ?? "").includes(prompt));

beforeAll(async () => {
  llm = await startScriptedLlm(script);
  const keys = {
    dtmf_enabled: true,
    dtmf_mapping: { "1": "I have a question about my invoice", "2": "Thanks, that's all", "3": "Goodbye" },
    end_call_function: true,
  };
  sip = await startSipApp(llm, {
    name: "Receptionist",
    system_prompt: "You are the receptionist.",
    first_message: "Front desk, how can I help?",
    ...keys,
  });
  t = sip.t;
  const billing = await createAssistant(t, sip.token, {
    name: "Billing",
    system_prompt: "You are the billing specialist.",
    llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
    ...keys,
  });
  const created = await call(t, "POST", "/api/v1/squads", {
    token: sip.token,
    body: {
      name: "Front office",
      members: [
        { assistant_id: sip.agentId, name: "receptionist", first: true },
        { assistant_id: billing, name: "billing" },
      ],
      handoffs: [
        { from: "receptionist", to: "billing", description: "The caller asks about an invoice." },
        { from: "billing", to: "receptionist", description: "The caller's billing question is answered." },
      ],
    },
  });
  if (created.statusCode !== 201) throw new Error(`creating the squad failed: ${created.body}`);
  squad = created.json<Squad>();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

describe("a SIP trunk number answered by a squad", () => {
  it("starts at the first member, hands the call to billing and back, and logs three segments", async () => {
    const number = await insertPhoneNumber(
      t.ctx.db,
      { workspaceId: sip.workspaceId },
      {
        number: NUMBER,
        provider: "sip_trunk",
        squadId: squad.id,
        sipTrunk: {
          sip_host: `127.0.0.1:${await freeUdpPort()}`,
          transport: "udp",
          username: "",
          register: false,
          allowed_ips: ["127.0.0.1"],
        },
      },
    );
    expect(number.agentId).toBeNull();
    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const sipp = runSipp(
      callerScenario({
        from: "<sip:+14155551234@carrier.test>",
        to: `<sip:${NUMBER}@parley.test>`,
        sdp: sdpFor(mediaPort),
        challenged: false,
      }),
      [`127.0.0.1:${sipRuntimeOf(t.ctx)?.port}`, "-i", "127.0.0.1", "-p", String(await freeUdpPort()), "-s", NUMBER],
    );
    try {
      await eventually(async () => probe.peak > SPEECH_PEAK, "the receptionist's greeting over RTP");
      const callId = await sip.newestCall();
      let seen = llm.requests.length;
      await probe.sendDigit("1");
      await eventually(async () => askedAs("You are the billing specialist.", seen), "billing taking the call over");
      seen = llm.requests.length;
      await probe.sendDigit("2");
      await eventually(async () => askedAs("You are the receptionist.", seen), "the receptionist taking it back");
      await probe.sendDigit("3");
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      await sip.closedLog(callId);
      const closed = (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: sip.token })).json<CallLog>();
      expect(closed).toMatchObject({ status: "completed", channel: "sip", to_number: NUMBER });
      expect((closed.segments ?? []).map((s) => [s.member, s.from_member, s.reason])).toEqual([
        ["receptionist", null, null],
        ["billing", "receptionist", TO_BILLING],
        ["receptionist", "billing", BACK],
      ]);
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 90_000);
});
