import { type CallChannel, type CallDirection, providerLabel, type RealtimeServerMessage } from "@parley/contract";
import type { CallEvent } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { CallMetrics } from "./call-metrics.ts";

/** What the live-call code needs from the running server. */
export interface CallsRuntime {
  ctx: AppContext;
  metrics: CallMetrics;
  log: FastifyBaseLogger;
}

/** One caller's connection, whatever carries it (the browser WebSocket, a phone media stream, SIP RTP, a messaging app's WebRTC call). */
export interface CallTransport {
  send(message: RealtimeServerMessage): void;
  /** 20 ms of assistant audio, 16-bit mono PCM at 16 kHz. */
  sendAudio(pcm: Int16Array): void;
  /** The call has ended (its reason given); a phone leg still up is hung up here, unless it was transferred. */
  close(code: number, reason: string): void;
  /**
   * Every engine event, for what a telephone does and a browser does not: barge-in clears audio
   * queued at the carrier, a transfer moves the call, DTMF is played to the far end. `report` adds a
   * problem (a refused transfer) to the call's log. The browser transport leaves this out.
   */
  control?(event: CallEvent, report: (problem: string) => void): void;
}

/** Where a call comes from: what the log records, what the model is told and what the minutes cost. */
export interface CallOrigin {
  channel: CallChannel;
  direction: CallDirection;
  /** E.164, SIP URI or extension of the calling side; null for browser calls. */
  from: string | null;
  /** The number called. */
  to: string | null;
  /** USD per minute the carrier charges (the vendor descriptor's telephony price); 0 off the phone network. */
  telephonyPerMinute: number;
}

/** A browser (or widget) call: nothing to dial, nothing to pay a carrier. */
export const WEB_ORIGIN: CallOrigin = {
  channel: "web",
  direction: "inbound",
  from: null,
  to: null,
  telephonyPerMinute: 0,
};

/** The line the model is given about the caller, so it can say "I see you're calling from…" when it helps. */
export function callerContext(origin: CallOrigin): string {
  const other = origin.direction === "inbound" ? origin.from : origin.to;
  switch (origin.channel) {
    case "phone":
      if (origin.direction === "outbound") return `You placed this phone call to ${other ?? "the caller"}.`;
      return other ? `The caller is on the phone from ${other}.` : "The caller is on the phone.";
    case "sip":
      if (origin.direction === "outbound") return `You placed this call to ${other ?? "the caller"} over SIP.`;
      return other ? `The caller is on a SIP phone from ${other}.` : "The caller is on a SIP phone.";
    case "web":
    case "widget":
      return "The caller is talking to you from a web browser.";
    default: {
      // A messaging app's voice call: named by its descriptor's label.
      const app = providerLabel(origin.channel);
      return other ? `The caller is on a ${app} voice call from ${other}.` : `The caller is on a ${app} voice call.`;
    }
  }
}
