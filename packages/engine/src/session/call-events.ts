import { redactCardNumbers } from "../text/pci-redaction.ts";
import type { PiiVault } from "../text/pii-vault.ts";
import type { CallEvent, CallSink } from "./types.ts";

/** What a key press pressed under PCI is kept as: a keypad may be taking a card number. */
export const REDACTED_KEY = "[REDACTED KEY]";

/**
 * Delivers events to the sink. With PII redaction (`pii`, the call's vault), personal data is
 * masked with the call's placeholders in every transcript, tool call, interruption and hand-off
 * reason first; with PCI alone, card numbers are. Under PCI, the caller's key presses never leave
 * the engine. Everything downstream (the call log, timeline, webhooks, traces, logs, the live
 * socket) only ever sees what passed here. A sink that throws never takes the call down.
 */
export function createEmitter(sink: CallSink, pci: boolean, pii: PiiVault | null = null): (event: CallEvent) => void {
  const mask = pii ? (text: string) => pii.mask(text) : pci ? redactCardNumbers : null;
  return (event) => {
    let safe = mask ? redactEvent(event, mask) : event;
    if (pci && safe.type === "dtmf_in") safe = { ...safe, digit: REDACTED_KEY };
    try {
      sink.onEvent(safe);
    } catch {
      // The sink's own failure is the server's to log; the call goes on.
    }
  };
}

function redactEvent(event: CallEvent, mask: (text: string) => string): CallEvent {
  if (event.type === "transcript") return { ...event, text: mask(event.text) };
  if (event.type === "tool_call") {
    return { ...event, arguments: mask(event.arguments), result: mask(event.result) };
  }
  if (event.type === "interruption") return { ...event, heardText: mask(event.heardText) };
  if (event.type === "handoff") return { ...event, reason: mask(event.reason) };
  return event;
}
