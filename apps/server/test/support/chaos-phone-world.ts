import { call } from "../harness.ts";
import { twilioVendor } from "./carrier-vendors.ts";
import { type ChaosCaller, callOnTwilio } from "./chaos-caller.ts";
import type { SttFault } from "./chaos-stt.ts";
import type { TtsScenario } from "./chaos-tts.ts";
import { type BridgeWorld, startBridgeWorld } from "./telephony-bridge.ts";

/**
 * The chaos tests' phone channel: a Twilio double with one number routed to an assistant on the
 * Deepgram doubles, and callers ringing it over Media Streams — 8 kHz μ-law on the wire — whose ear
 * times what they hear. Its app (a listening one whose PUBLIC_URL is its own address) also serves
 * the file's browser calls.
 */

export interface PhoneLine {
  world: BridgeWorld;
  /** Saves the Deepgram key playing `scenario` for the number's workspace and places a call from `from`. */
  ring(from: string, scenario: { stt?: SttFault; tts?: TtsScenario }): Promise<ChaosCaller & { callSid: string }>;
  /** The id of the call placed from `from`. */
  callIdOf(from: string): Promise<string>;
  close(): Promise<void>;
}

/** Saves a scenario's keys for a workspace (chaos-world's saveChaosKeys, handed in to keep the import one way). */
type SaveKeys = (token: string, scenario: { stt?: SttFault; tts?: TtsScenario }) => Promise<string>;

export async function startPhoneLine(options: {
  number: string;
  /** The number's assistant fields (providers, greeting, backups, fault policy). */
  assistant: Record<string, unknown>;
  saveKeys: SaveKeys;
}): Promise<PhoneLine> {
  const vendor = twilioVendor(options.number);
  const double = await vendor.startDouble();
  const credentials = await vendor.credentials(double);
  const world = await startBridgeWorld({
    provider: "twilio",
    credentials: () => credentials,
    doubleOrigin: double.origin,
    number: vendor.number,
    assistant: options.assistant,
  });
  return {
    world,
    async ring(from, scenario) {
      await options.saveKeys(world.token, scenario);
      return callOnTwilio({
        publicUrl: world.t.config.publicUrl,
        accountSid: vendor.sid,
        authToken: vendor.token,
        from,
        to: vendor.number,
      });
    },
    async callIdOf(from) {
      const listed = await call(world.t, "GET", "/api/v1/call-logs", { token: world.token });
      const logs = listed.json<{ data: { id: string; from_number: string | null }[] }>().data;
      const callId = logs.find((l) => l.from_number === from)?.id;
      if (!callId) throw new Error(`no call log from ${from}: ${listed.body}`);
      return callId;
    },
    async close() {
      await world.close();
      await double.close();
    },
  };
}
