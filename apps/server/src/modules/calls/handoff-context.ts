import type { SquadContext } from "@parley/contract";
import type { ChatMessage } from "@parley/engine";

/** What the next squad member is told of the call so far: a note for its prompt, and its history. */
export interface CarriedContext {
  note: string;
  history: ChatMessage[];
}

/** The words of the conversation, without tool calls and their results (another assistant has other tools). */
export function dialogueOf(history: readonly ChatMessage[]): ChatMessage[] {
  return history.flatMap((message): ChatMessage[] => {
    if (message.role === "user" && message.content.trim()) return [{ role: "user", content: message.content }];
    if (message.role === "assistant" && message.content.trim())
      return [{ role: "assistant", content: message.content }];
    return [];
  });
}

const lastCallerLine = (dialogue: ChatMessage[]): ChatMessage[] => {
  const last = dialogue.findLast((m) => m.role === "user");
  return last ? [last] : [];
};

/**
 * The hand-off's carry-over (issue 31): the whole dialogue; or a summary (written by `summarise`, the
 * handing-off model) with the caller's last line; or the named call values with the caller's last
 * line. A summary that fails is left out: the next member still hears what the caller last said.
 */
export async function carriedContext(
  carry: SquadContext,
  dialogue: ChatMessage[],
  sources: { summarise(): Promise<string>; values(): Record<string, string> },
): Promise<CarriedContext> {
  if (carry.mode === "transcript") return { note: "", history: dialogue };
  if (carry.mode === "summary") {
    const summary = await sources.summarise().catch(() => "");
    return { note: summary ? `Summary of the call so far: ${summary}` : "", history: lastCallerLine(dialogue) };
  }
  const values = sources.values();
  const known = carry.variables.flatMap((name) => (values[name] ? [`${name}: ${values[name]}`] : []));
  return {
    note: known.length > 0 ? `What is known about the caller:\n${known.join("\n")}` : "",
    history: lastCallerLine(dialogue),
  };
}
