import type { ChatMessage, LlmProvider, ToolSpec } from "../providers/types.ts";
import type { CallerPlan } from "./types.ts";

/** The caller's next words from its model, and whether it hangs up after them. */
export interface PersonaLine {
  text: string;
  hangUp: boolean;
}

const END_CALL_TOOL: ToolSpec = {
  name: "end_call",
  description:
    "Hang up. Call it when your goal is met or the assistant says goodbye; any goodbye goes in your reply text.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

/** What the model may answer instead of calling the tool (some servers offer no tools). */
const HANGUP_WORD = "[HANGUP]";
/** Stands for an assistant that said nothing, so the conversation keeps alternating. */
const SILENCE = "[silence]";

/** The model's instruction on language: "en-GB" → "British English (en-GB)"; an unknown tag as given. */
function languageLine(tag: string): string {
  let name = tag;
  try {
    name = new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;
  } catch {
    // Not a language tag (empty, "multi"): the caller follows the assistant's language.
  }
  if (!tag) return "Speak the language the assistant speaks.";
  return name === tag ? `Speak the language the assistant speaks (${tag}).` : `Speak ${name} (${tag}).`;
}

/** What a voice should say of a reply: stage directions (*sighs*, [laughs]) and wrapping quotes removed. */
export function spokenWords(text: string): string {
  return text
    .replace(/\*[^*]*\*|\[[^\]]*\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["“](.*)["”]$/s, "$1")
    .trim();
}

function systemPrompt(plan: CallerPlan): string {
  return [
    "You are role-playing a caller on a phone call with a voice assistant, to test the assistant.",
    languageLine(plan.language),
    "",
    "Who you are and what you want:",
    plan.persona,
    "",
    "Rules:",
    "- Reply with only the words the caller says next: one or two short spoken sentences.",
    "- No stage directions, no actions or tone in brackets or asterisks, no speaker names, no quotation marks.",
    "- Never speak for the assistant. The assistant's words reach you as the other side of the conversation;",
    `  ${SILENCE} means it said nothing.`,
    `- When your goal is met, or the assistant says goodbye, call the tool end_call (your reply may hold a short goodbye). If you cannot call tools, reply ${HANGUP_WORD}.`,
  ].join("\n");
}

/** The persona's side of the conversation: what it heard, what it said, and its model. */
export class PersonaModel {
  private readonly history: { from: "assistant" | "caller"; text: string }[] = [];

  constructor(
    private readonly llm: LlmProvider,
    private readonly plan: CallerPlan,
  ) {}

  /** The assistant's words (a final transcript line); lines heard in a row are one message. */
  heard(text: string): void {
    const words = text.trim();
    if (!words) return;
    const last = this.history.at(-1);
    if (last?.from === "assistant") last.text = `${last.text} ${words}`;
    else this.history.push({ from: "assistant", text: words });
  }

  said(text: string): void {
    if (text) this.history.push({ from: "caller", text });
  }

  /** Words of the assistant arrived since the caller last spoke. */
  get heardSinceLastLine(): boolean {
    return this.history.at(-1)?.from === "assistant";
  }

  /** Asks the model for the caller's next line. */
  async next(signal: AbortSignal): Promise<PersonaLine> {
    let text = "";
    let hangUp = false;
    for await (const chunk of this.llm.chat({
      messages: this.messages(),
      tools: [END_CALL_TOOL],
      // The same persona plays the same way on every run, so a flaky result is the assistant's.
      temperature: 0,
      maxTokens: 200,
      signal,
    })) {
      if (chunk.type === "text") text += chunk.text;
      else if (chunk.type === "tool_call" && chunk.call.name === END_CALL_TOOL.name) hangUp = true;
    }
    text = text.trim();
    if (text.endsWith(HANGUP_WORD)) {
      text = text.slice(0, -HANGUP_WORD.length).trim();
      hangUp = true;
    }
    text = spokenWords(text);
    return { text, hangUp: hangUp || text === "" };
  }

  private messages(): ChatMessage[] {
    const messages: ChatMessage[] = [{ role: "system", content: systemPrompt(this.plan) }];
    for (const entry of this.history) {
      if (entry.from === "caller" && messages.at(-1)?.role !== "user")
        messages.push({ role: "user", content: SILENCE });
      messages.push(
        entry.from === "assistant" ? { role: "user", content: entry.text } : { role: "assistant", content: entry.text },
      );
    }
    if (messages.at(-1)?.role !== "user") messages.push({ role: "user", content: SILENCE });
    return messages;
  }
}
