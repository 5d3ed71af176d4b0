import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import type { TestApp } from "./harness.ts";
import { lastUserText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { answererScenario, type CallerTail, callerScenario } from "./support/sip-scenarios.ts";
import { MediaProbe, runSipp, sdpFor } from "./support/sipp.ts";

const SPEECH_PEAK = 2000;
const BILLING = "+14155550199";

let llm: ScriptedLlm;
let sip: SipApp;
let t: TestApp;

beforeAll(async () => {
  // Digit 7 asks for billing; the model transfers the call there.
  llm = await startScriptedLlm((request) => {
    if (request.messages.at(-1)?.role === "tool") return { text: "Connecting you." };
    return /billing/i.test(lastUserText(request))
      ? { toolCall: { name: "transfer_call", arguments: '{"destination":"Billing"}' } }
      : { text: "Happy to help." };
  });
  sip = await startSipApp(llm, {
    first_message: "Hello, this is the front desk.",
    dtmf_enabled: true,
    dtmf_mapping: { "7": "Put me through to billing" },
    call_transfer: true,
    transfer_config: [{ name: "Billing", number: BILLING, transfer_message: "Transferring you now." }],
  });
  ({ t } = sip);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

async function callIn(number: string, then: CallerTail) {
  const probe = new MediaProbe();
  const mediaPort = await probe.open();
  const sipp = runSipp(
    callerScenario({
      from: "<sip:+14155551234@carrier.test>",
      to: `<sip:${number}@parley.test>`,
      sdp: sdpFor(mediaPort),
      challenged: false,
      then,
    }),
    [`127.0.0.1:${sipRuntimeOf(t.ctx)?.port}`, "-i", "127.0.0.1", "-p", String(await freeUdpPort()), "-s", number],
  );
  await eventually(async () => probe.peak > SPEECH_PEAK, "the assistant's voice over RTP");
  return { probe, sipp };
}

describe("SIP transfer", () => {
  it("transfers by REFER when the peer accepts it, then leaves the call", async () => {
    await sip.inboundTrunkNumber("+14155550120", await freeUdpPort());
    const { probe, sipp } = await callIn("+14155550120", { kind: "accept-refer" });
    try {
      const callId = await sip.newestCall();
      await probe.sendDigit("7");
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      expect(result.output).not.toContain("Aborting");
      const log = await sip.closedLog(callId);
      expect(log.status).toBe("completed");
      expect(JSON.stringify(log.events)).toContain(BILLING);
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 60_000);

  it("bridges the caller to the destination when the peer refuses REFER, relaying audio both ways", async () => {
    const carrierPort = await freeUdpPort();
    await sip.inboundTrunkNumber("+14155550121", carrierPort);
    const destination = new MediaProbe();
    const destinationPort = await destination.open();
    const desk = runSipp(answererScenario(sdpFor(destinationPort)), ["-i", "127.0.0.1", "-p", String(carrierPort)]);
    const { probe, sipp } = await callIn("+14155550121", { kind: "refuse-refer", holdMs: 15_000 });
    try {
      await probe.sendDigit("7");
      // The caller speaks (a tone) until the destination hears it through Parley's bridge.
      await probe.sendTone(1_000, () => destination.peak > SPEECH_PEAK);
      expect(destination.peak).toBeGreaterThan(SPEECH_PEAK);
      // …and the destination's answer reaches the caller.
      probe.resetPeak();
      await destination.sendTone(1_000, () => probe.peak > SPEECH_PEAK);
      expect(probe.peak).toBeGreaterThan(SPEECH_PEAK);
      const [caller, answered] = await Promise.all([sipp.done, desk.done]);
      expect(caller.code, caller.output.slice(-1500)).toBe(0);
      expect(answered.code, answered.output.slice(-1500)).toBe(0);
    } finally {
      sipp.stop();
      desk.stop();
      probe.close();
      destination.close();
    }
  }, 60_000);
});
