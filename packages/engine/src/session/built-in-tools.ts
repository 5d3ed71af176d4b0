import type { TransferDestination } from "@parley/contract";
import type { ToolCall, ToolSpec } from "../providers/types.ts";
import type { CallSettings } from "./call-settings.ts";
import type { ToolResult } from "./types.ts";

/** What the built-in tools do to the call; the session supplies them. */
export interface BuiltInActions {
  /** Say the goodbye message after what is being said, then end ("assistant_ended"). */
  endCall(): void;
  /** Say the destination's transfer message, emit the transfer, end ("transferred"). */
  transfer(destination: TransferDestination): void;
  sendDtmf(digits: string): void;
}

export interface BuiltInOutcome {
  result: ToolResult;
  /** The call is ending: do not ask the model again. */
  stop: boolean;
}

/** The engine's own tools the call's settings switch on. */
export function builtInToolSpecs(settings: CallSettings): ToolSpec[] {
  const destinations = settings.transferDestinations.map((d) => d.name);
  const specs: ToolSpec[] = [];
  if (settings.endCall.tool) {
    specs.push({
      name: "end_call",
      description: "End the call. Use it when the conversation is complete or the caller wants to hang up.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    });
  }
  if (destinations.length > 0) {
    specs.push({
      name: "transfer_call",
      description: `Transfer the caller to a person or department. Destinations: ${destinations.join(", ")}.`,
      parameters: {
        type: "object",
        properties: { destination: { type: "string", enum: destinations } },
        required: ["destination"],
        additionalProperties: false,
      },
    });
  }
  specs.push({
    name: "send_dtmf",
    description: "Press keys on the phone keypad, for example to navigate a phone menu.",
    parameters: {
      type: "object",
      properties: { digits: { type: "string", pattern: "^[0-9*#]+$", description: "Keys to press, e.g. 1 or 123#" } },
      required: ["digits"],
      additionalProperties: false,
    },
  });
  return specs;
}

function parseArgs(call: ToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.arguments || "{}");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const fail = (content: string): BuiltInOutcome => ({ result: { ok: false, content }, stop: false });

/** Runs a built-in tool; null when `call` is not one of the enabled built-ins. */
export function runBuiltInTool(settings: CallSettings, call: ToolCall, actions: BuiltInActions): BuiltInOutcome | null {
  const enabled = new Set(builtInToolSpecs(settings).map((s) => s.name));
  if (!enabled.has(call.name)) return null;
  const args = parseArgs(call);
  switch (call.name) {
    case "end_call":
      actions.endCall();
      return { result: { ok: true, content: "The call is ending." }, stop: true };
    case "transfer_call": {
      const wanted = String(args.destination ?? "").toLowerCase();
      const destinations = settings.transferDestinations;
      const destination = destinations.find((d) => d.name.toLowerCase() === wanted);
      if (!destination) {
        return fail(`Unknown destination. Choose one of: ${destinations.map((d) => d.name).join(", ")}.`);
      }
      actions.transfer(destination);
      return { result: { ok: true, content: `Transferring the call to ${destination.name}.` }, stop: true };
    }
    case "send_dtmf": {
      const digits = String(args.digits ?? "");
      if (!/^[0-9*#]+$/.test(digits)) return fail("Digits must be 0-9, * or #.");
      actions.sendDtmf(digits);
      return { result: { ok: true, content: `Pressed ${digits}.` }, stop: false };
    }
    default:
      return null;
  }
}
