import type { CallEndReason } from "@parley/contract";
import type { CallLeg, RtpSession } from "@parley/sip";
import type { CallOrigin, LiveCall, Room } from "../calls/runtime.ts";
import { Upsampler } from "./rate-convert.ts";
import { clearExtensionCall, markExtensionCall } from "./registrations.ts";
import { RtpCallTransport, type TransferOutcome } from "./rtp-call-transport.ts";
import type { SipRuntime } from "./sip-runtime.ts";

export interface SipCallSetup {
  runtime: SipRuntime;
  leg: CallLeg;
  rtp: RtpSession;
  room: Room;
  origin: CallOrigin;
  /** Shown in the live monitor as the caller. */
  callerName: string;
  /** The extension this call is on, for status RUNNING. */
  extension: { username: string; domain: string } | null;
  transfer: (number: string) => Promise<TransferOutcome>;
}

/**
 * Runs the room's assistant on a SIP leg whose media is agreed: caller RTP (8 kHz) goes to the
 * engine at 16 kHz with RFC 4733 digits, the engine's audio goes back as RTP, and a BYE from the
 * caller ends the call. Resolves once the engine session has started.
 */
export async function runAssistantOnLeg(setup: SipCallSetup): Promise<LiveCall | null> {
  const { runtime, leg, rtp, room, extension } = setup;
  const { calls } = runtime;
  const { db } = runtime.ctx;
  if (extension) {
    await markExtensionCall(db, {
      callId: room.callId,
      ...extension,
      processId: runtime.processId,
      startedAt: runtime.ctx.now(),
    }).catch((error: unknown) => calls.log.warn({ err: error }, "could not mark the extension busy"));
  }
  const released = () => {
    if (extension) void clearExtensionCall(db, room.callId).catch(() => undefined);
  };
  const transport = new RtpCallTransport(leg, rtp, setup.transfer, calls.log, released, (hangingUp) => {
    runtime.hangingUp.add(hangingUp);
    void hangingUp.finally(() => runtime.hangingUp.delete(hangingUp));
  });
  const up = new Upsampler();
  let live: LiveCall | null = null;
  const hangup = (reason: CallEndReason) => void live?.hangup(reason);
  rtp.on("audio", (pcm) => live?.pushAudio(up.process(pcm)));
  rtp.on("dtmf", (digit) => live?.pushDtmf(digit));
  leg.once("ended", (why) => hangup(why === "local_hangup" ? "removed" : "caller_hangup"));
  const caller = {
    identity: `sip-${leg.callId.slice(0, 12)}`,
    name: setup.callerName,
    kind: "caller" as const,
    joinedAt: runtime.ctx.now(),
  };
  try {
    live = await calls.startLiveCall(room, caller, transport, setup.origin);
  } catch (error) {
    calls.log.warn({ err: error, callId: room.callId }, "the SIP call's assistant could not start");
    await leg.hangup();
    rtp.close();
    released();
    return null;
  }
  if (leg.state === "ended") hangup("caller_hangup");
  return live;
}
