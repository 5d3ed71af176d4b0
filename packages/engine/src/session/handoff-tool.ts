import { HANDOFF_TOOL_PREFIX } from "@parley/contract";
import type { ChatMessage, ToolCall, ToolSpec } from "../providers/types.ts";
import type { Utterance } from "../speech/speech-output.ts";
import type { AssistantSwitch, Handoffs, ToolResult } from "./types.ts";

/** What a hand-off tool needs from the call around it. */
export interface HandoffToolContext {
  handoffs: Handoffs | undefined;
  history(): readonly ChatMessage[];
  /** Says the bridge line (not interruptible) in the handing-off assistant's voice. */
  say(text: string): Utterance;
  isEnding(): boolean;
  switchTo(change: AssistantSwitch): Promise<void>;
}

export interface HandoffOutcome {
  result: ToolResult;
  /** The call has passed to another assistant: the handing-off model is not asked again. */
  stop: boolean;
}

/** One `handoff_to_<name>` tool per allowed target, described as the squad describes the hand-off. */
export function handoffToolSpecs(handoffs: Handoffs | undefined): ToolSpec[] {
  return (handoffs?.targets ?? []).map((target) => ({
    name: `${HANDOFF_TOOL_PREFIX}${target.name}`,
    description: `Hand the caller to ${target.name}. ${target.description}`,
    parameters: {
      type: "object",
      properties: { reason: { type: "string", description: "Why you are handing the caller over, in a sentence." } },
      required: ["reason"],
      additionalProperties: false,
    },
  }));
}

/** True when `name` is one of the current assistant's hand-off tools. */
export function isHandoffTool(handoffs: Handoffs | undefined, name: string): boolean {
  return name.startsWith(HANDOFF_TOOL_PREFIX) && handoffToolSpecs(handoffs).some((spec) => spec.name === name);
}

function reasonOf(call: ToolCall): string {
  try {
    const args: unknown = JSON.parse(call.arguments || "{}");
    if (typeof args === "object" && args !== null && "reason" in args && typeof args.reason === "string")
      return args.reason.trim();
  } catch {
    // Malformed arguments are caught before a tool runs; a reason is only for the log.
  }
  return "";
}

const refuse = (content: string): HandoffOutcome => ({ result: { ok: false, content }, stop: false });

/**
 * Runs a hand-off tool: the server decides (a limit reached is refused, and the model hears why),
 * the bridge line is said while the next assistant is prepared, then the call switches to it.
 */
export async function runHandoffTool(ctx: HandoffToolContext, call: ToolCall): Promise<HandoffOutcome> {
  const target = call.name.slice(HANDOFF_TOOL_PREFIX.length);
  if (!ctx.handoffs || ctx.isEnding()) return refuse("The call is ending; it cannot be handed over.");
  const answer = ctx.handoffs.request(target, reasonOf(call), ctx.history());
  if ("refused" in answer) return refuse(answer.refused);
  const bridge = answer.bridgeLine ? ctx.say(answer.bridgeLine).done : Promise.resolve();
  let change: AssistantSwitch;
  try {
    [change] = await Promise.all([answer.next, bridge]);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuse(`The hand-off to ${target} failed (${why}). Help the caller yourself.`);
  }
  if (ctx.isEnding()) return refuse("The call is ending; it cannot be handed over.");
  await ctx.switchTo(change);
  return { result: { ok: true, content: `The caller is now talking to ${target}.` }, stop: true };
}
