import { type CallLogEvent, providerLabel } from "@parley/contract";
import { eventKey } from "./format.ts";

type Translate = (key: string, options?: Record<string, string>) => string;

/** An event of the call's timeline as the call page shows it: its line, and the vendor's answer under it where there is one. */
export interface EventText {
  text: string;
  detail?: string;
}

/** An end reason in words, or as stored when the locale has none (a SIP status, a reason newer than this app). */
export const reasonText = (t: Translate, reason: string) => t(`reasons.${reason}`, { defaultValue: reason });

/**
 * Words for one event: what happened and, for a provider's fault, which stage and provider failed,
 * how, what the call did about it (a retry, a backup, the recovery line, giving up) and the error.
 */
export function eventText(event: CallLogEvent, t: Translate): EventText {
  const title = t(eventKey(event));
  switch (event.type) {
    case "interruption":
      return { text: event.heard_text.trim() ? `${title} “${event.heard_text.trim()}”` : title };
    case "transfer":
      return { text: `${title} → ${event.destination.name} (${event.destination.number})` };
    case "provider_fallback":
      return {
        text: `${title} ${t(`cost.${event.stage}`)}: ${providerLabel(event.from)} → ${providerLabel(event.to)}`,
      };
    case "dtmf":
      return { text: `${title} ${event.direction}: ${event.digits}` };
    case "error":
      return { text: `${title} ${event.message}` };
    case "fault":
      return {
        text: t("events.fault", {
          stage: t(`faultStages.${event.stage}`),
          provider: providerLabel(event.provider),
          kind: t(`faultKinds.${event.kind}`),
          action: t(`faultActions.${event.action}`),
        }),
        detail: event.error || undefined,
      };
    case "tool_skipped":
      return { text: t("events.tool_skipped", { name: event.name, reason: event.reason }) };
    case "ended":
      return { text: t("events.ended", { reason: reasonText(t, event.reason) }) };
    case "handoff":
      return { text: t("events.handoff", { from: event.from, to: event.to, reason: event.reason || "—" }) };
  }
}
