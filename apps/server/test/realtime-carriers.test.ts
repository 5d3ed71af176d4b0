import { startRealtimeDouble } from "@parley/engine/testing/vendor-servers/openai-realtime-double";
import { describe, expect, it } from "vitest";
import { call } from "./harness.ts";
import type { BridgeVendor } from "./support/bridge-suite.ts";
import { plivoVendor, telnyxVendor, vonageVendor } from "./support/carrier-vendors.ts";
import { finishedLog, newestCallId, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * A realtime assistant answers on every media-stream carrier (issue 32: every channel goes through
 * the same live call): Telnyx, Plivo and Vonage streams (Twilio's is in realtime-calls.test.ts),
 * each at the line's 8 kHz, resampled to the session's 16 kHz by its transport.
 */

const KEY = "sk-realtime-carriers";
const GREETING = "Hello, this is the realtime desk.";
const REPLY = "Certainly, we are open until five today.";

describe.each([telnyxVendor(), plivoVendor(), vonageVendor()] as BridgeVendor[])(
  "a realtime assistant on $label",
  (vendor) => {
    it("greets, answers the caller and logs the transcript with the model's cost and the line's", async () => {
      const model = await startRealtimeDouble({
        apiKey: KEY,
        replies: [
          { say: GREETING, ms: 400 },
          { say: REPLY, ms: 400 },
        ],
      });
      const carrier = await vendor.startDouble();
      const credentials = await vendor.credentials(carrier);
      const world = await startBridgeWorld({
        provider: vendor.provider,
        credentials: () => credentials,
        doubleOrigin: carrier.origin,
        number: vendor.number,
        assistant: { first_message: GREETING, engine_mode: "realtime", realtime: { provider: "openai-realtime" } },
      });
      try {
        const saved = await call(world.t, "PUT", "/api/v1/integrations/openai", {
          token: world.token,
          body: { credentials: { api_key: KEY, base_url: model.baseUrl.replace(/^ws/, "http") } },
        });
        expect(saved.statusCode).toBe(200);
        const handle = await carrier.ringInbound(vendor.number, "+14155559999");
        const leg = await handle.stream();
        await leg.waitForAudio(300, 20_000);
        model.callerSaid("Are you open today?");
        // The greeting (400 ms) and part of the reply reached the caller.
        await leg.waitForAudio(600, 20_000);
        const callId = await newestCallId(world);
        await handle.hangup();
        const log = await finishedLog(world, callId);
        expect(log).toMatchObject({ channel: "phone", status: "completed" });
        expect(log.transcript).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ role: "assistant", text: GREETING }),
            expect.objectContaining({ role: "user", text: "Are you open today?" }),
            expect.objectContaining({ role: "assistant", text: REPLY }),
          ]),
        );
        expect(log.cost_breakdown?.realtime_tokens?.output_audio).toBeGreaterThan(0);
        expect(log.cost_breakdown?.telephony).toBeGreaterThan(0);
      } finally {
        await world.close();
        await carrier.close();
        await model.close();
      }
    }, 120_000);
  },
);
