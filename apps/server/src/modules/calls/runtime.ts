import { providerLabel } from "@parley/contract";
import type { CallOrigin } from "../../lib/call-runtime.ts";

/**
 * The call runtime's public face: what channel modules (telephony, SIP, messaging apps, the widget,
 * campaigns) import of the calls module. They receive the runtime itself as `app.ctx.calls`.
 */
export type {
  CallCarrier,
  CallLogFilters,
  CallMetrics,
  CallOrigin,
  CallRecord,
  CallRequest,
  CallRuntime,
  CallTransport,
  LiveCall,
  Participant,
  Room,
} from "../../lib/call-runtime.ts";
export { isMinutesRefusal } from "./minutes-allowance.ts";
export { originAllowed } from "./origin-allowed.ts";
export { roomGrantClaims } from "./room-grant.ts";

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
    case "test":
      // A simulated caller: the assistant hears what it would on a real call of that line.
      return origin.testLine === "phone"
        ? "The caller is on the phone."
        : "The caller is talking to you from a web browser.";
    default: {
      // A messaging app's voice call: named by its descriptor's label.
      const app = providerLabel(origin.channel);
      return other ? `The caller is on a ${app} voice call from ${other}.` : `The caller is on a ${app} voice call.`;
    }
  }
}
