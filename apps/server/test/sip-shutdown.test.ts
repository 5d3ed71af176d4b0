import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { callerScenario } from "./support/sip-scenarios.ts";
import { MediaProbe, runSipp, sdpFor } from "./support/sipp.ts";

/**
 * A server that closes with a SIP call up (a drain's deadline, a second SIGTERM) ends the call as
 * server_shutdown and sends the phone its BYE before the SIP listener goes, not leaving the far end
 * on a dead line.
 */
let llm: ScriptedLlm;
let sip: SipApp;
let closed = false;
beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Still here." }));
  // A long greeting: the server closes while most of it is still queued to play.
  const greeting = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1} of a long welcome.`).join(
    " ",
  );
  sip = await startSipApp(llm, { first_message: greeting });
}, 240_000);
afterAll(async () => {
  if (!closed) await sip?.t.close();
  await llm?.close();
});

describe("a server closing with a SIP call up", () => {
  it("sends the call's BYE before its SIP listener closes", async () => {
    const sipPort = sipRuntimeOf(sip.t.ctx)?.port;
    if (!sipPort) throw new Error("SIP is not running");
    await sip.inboundTrunkNumber("+14155550160", 5999);
    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const sipp = runSipp(
      callerScenario({
        from: "<sip:+14155551234@carrier.test>",
        to: "<sip:+14155550160@parley.test>",
        sdp: sdpFor(mediaPort),
        challenged: false,
      }),
      [`127.0.0.1:${sipPort}`, "-i", "127.0.0.1", "-p", String(await freeUdpPort()), "-s", "+14155550160"],
      120,
    );
    try {
      await eventually(async () => probe.packets > 25, "the assistant's RTP");
      closed = true;
      await sip.t.close();
      // The scenario passes only if Parley's BYE arrived (and was answered).
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 240_000);
});
