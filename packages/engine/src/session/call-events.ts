import { redactCardNumbers } from "../text/pci-redaction.ts";
import type { CallEvent, CallSink } from "./types.ts";

/**
 * Delivers events to the sink: with PCI on, card numbers are redacted from every transcript and
 * tool call first; a sink that throws never takes the call down.
 */
export function createEmitter(sink: CallSink, pci: boolean): (event: CallEvent) => void {
  return (event) => {
    const safe = pci ? redactEvent(event) : event;
    try {
      sink.onEvent(safe);
    } catch {
      // The sink's own failure is the server's to log; the call goes on.
    }
  };
}

function redactEvent(event: CallEvent): CallEvent {
  if (event.type === "transcript") return { ...event, text: redactCardNumbers(event.text) };
  if (event.type === "tool_call") {
    return { ...event, arguments: redactCardNumbers(event.arguments), result: redactCardNumbers(event.result) };
  }
  if (event.type === "interruption") return { ...event, heardText: redactCardNumbers(event.heardText) };
  return event;
}
