import { HANDOFF_TOOL_PREFIX } from "@parley/contract";
import type { ToolOutcome } from "../providers/shared/speech-model-client.ts";
import type { ChatMessage, ToolCall, ToolSpec } from "../providers/types.ts";
import { builtInToolSpecs } from "../session/built-in-tools.ts";
import { handoffToolSpecs, isHandoffTool } from "../session/handoff-tool.ts";
import type { AssistantParts, AssistantSwitch, CallEvent, EndReason } from "../session/types.ts";
import { WorkflowDirector } from "../session/workflow-director.ts";

/** What one assistant brings to a realtime call (its model and voice are the call's, chosen at the start). */
export type RealtimeParts = Pick<AssistantParts, "settings" | "tools" | "context" | "workflow" | "handoffs">;

/** The model's prompt and tools, as the session sends them (session.update, a Live setup). */
export interface ModelPrompt {
  instructions: string;
  tools: ToolSpec[];
}

/** What the assistant needs from the realtime call around it. */
export interface RealtimeAssistantContext {
  emit(event: CallEvent): void;
  /** Milliseconds since the call started. */
  at(): number;
  /** The conversation's words as a text model may be given them (personal data masked when the assistant asks). */
  forModel(text: string): string;
  /** The model's prompt and tools change mid-call. */
  update(prompt: ModelPrompt): void;
  /** Asks the model to say `text` exactly, once its reply under way is over. */
  say(text: string): void;
  /** Asks the model to speak on from the conversation (the assistant that just took over). */
  carryOn(): void;
  /** The call ends once the model has said `farewell` ("" : once what plays has played). */
  end(reason: EndReason, farewell: string, beforeEnd?: () => void): void;
  isEnding(): boolean;
  /** The next assistant's prompt and tools take over; the `handoff` event is emitted. */
  switchTo(change: AssistantSwitch): Promise<void>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The assistant a realtime call is talking as: its prompt and tools, its workflow and its squad
 * hand-offs. The pipeline decides a workflow's step before the model answers; a speech-to-speech
 * vendor answers the caller by itself at the end of their speech, so here the workflow advances
 * on the caller's final transcript and its step's prompt goes to the model (by `update`) for the
 * replies that follow. End, transfer and hand-off nodes act as in the pipeline (their message is
 * said after the reply under way).
 */
export class RealtimeAssistant {
  /** The conversation as transcribed (caller and assistant lines): a workflow's and a hand-off's input. */
  readonly history: ChatMessage[] = [];
  private director: WorkflowDirector | null = null;
  /** What the model was last given, so an unchanged step sends nothing. */
  private sent = "";
  /** The first message: a workflow's start-node greeting, else the assistant's (null: the caller speaks first). */
  readonly opening: string | null;

  constructor(
    private parts: RealtimeParts,
    private readonly ctx: RealtimeAssistantContext,
  ) {
    this.opening = this.direct();
    this.sent = promptKey(this.prompt());
  }

  get settings(): RealtimeParts["settings"] {
    return this.parts.settings;
  }

  get tools(): RealtimeParts["tools"] {
    return this.parts.tools;
  }

  /** The prompt of the step the model talks in, with every tool the assistant offers. */
  prompt(): ModelPrompt {
    const { settings, context, handoffs, tools } = this.parts;
    const base = `${settings.systemPrompt}${context ? `\n\n${context}` : ""}`;
    return {
      instructions: this.director ? this.director.systemPrompt(base) : base,
      tools: [...builtInToolSpecs(settings), ...handoffToolSpecs(handoffs), ...(tools?.tools() ?? [])],
    };
  }

  /** A caller turn (speech transcribed, typed text, a mapped key): the workflow advances on it. */
  callerSaid(text: string): void {
    if (!text) return;
    this.history.push({ role: "user", content: this.ctx.forModel(text) });
    void this.steer();
  }

  assistantSaid(text: string): void {
    if (text) this.history.push({ role: "assistant", content: this.ctx.forModel(text) });
  }

  isHandoff(name: string): boolean {
    return isHandoffTool(this.parts.handoffs, name);
  }

  /**
   * The model called `handoff_to_<name>`: the server decides and prepares the next assistant, whose
   * prompt and tools then take over the same model session. The bridge line is said by the model
   * as it answers the function's output (a function call cannot be interrupted to say it first).
   */
  async handOff(call: ToolCall): Promise<ToolOutcome> {
    const target = call.name.slice(HANDOFF_TOOL_PREFIX.length);
    const refuse = (content: string): ToolOutcome => ({ ok: false, content });
    const handoffs = this.parts.handoffs;
    if (!handoffs || this.ctx.isEnding()) return refuse("The call is ending; it cannot be handed over.");
    const answer = handoffs.request(target, reasonOf(call), this.history);
    if ("refused" in answer) return refuse(answer.refused);
    let change: AssistantSwitch;
    try {
      change = await answer.next;
    } catch (error) {
      return refuse(`The hand-off to ${target} failed (${describe(error)}). Help the caller yourself.`);
    }
    if (this.ctx.isEnding()) return refuse("The call is ending; it cannot be handed over.");
    await this.ctx.switchTo(change);
    const line = answer.bridgeLine;
    return {
      ok: true,
      content: `The caller is now talking to ${target}.`,
      // The instructions replace the session's for this one reply (Realtime API), so they carry the new prompt.
      followUp: line
        ? { instructions: `${this.prompt().instructions}\n\nStart your reply by saying exactly: "${line}"` }
        : undefined,
    };
  }

  /** The next assistant takes over: its prompt, tools, workflow and hand-offs; the conversation goes on. */
  switchTo(next: RealtimeParts): void {
    this.director?.close();
    this.parts = next;
    // Its workflow starts at its start node now (a greeting is not said: the call is under way).
    this.direct();
    this.refresh();
  }

  /** The call ended: the workflow's requests still running are abandoned. */
  close(): void {
    this.director?.close();
  }

  private direct(): string | null {
    const runner = this.parts.workflow;
    this.director = runner
      ? new WorkflowDirector(runner, {
          emit: (event) => this.ctx.emit(event),
          at: () => this.ctx.at(),
          end: (reason, { farewell, beforeEnd }) => this.ctx.end(reason, farewell ?? "", beforeEnd),
          handOff: (member, reason, message) => this.handOffFromWorkflow(member, reason, message),
        })
      : null;
    return this.director ? this.director.greeting() : this.parts.settings.firstMessage || null;
  }

  private async steer(): Promise<void> {
    const director = this.director;
    if (!director) return;
    try {
      await director.beforeReply(this.history);
    } catch (error) {
      this.ctx.emit({ type: "error", message: `The workflow could not advance: ${describe(error)}` });
    }
    if (director === this.director && !this.ctx.isEnding()) this.refresh();
  }

  /** Sends the step's prompt and tools when they changed (a new step, values collected, a tool's result). */
  private refresh(): void {
    const prompt = this.prompt();
    const key = promptKey(prompt);
    if (key === this.sent) return;
    this.sent = key;
    this.ctx.update(prompt);
  }

  /** A workflow's hand-off node: as the pipeline's, the squad must allow the hand-off from this assistant. */
  private handOffFromWorkflow(member: string, reason: string, message: string): void {
    const failed = (why: string) =>
      this.ctx.emit({ type: "error", message: `The workflow's hand-off to "${member}" did not happen: ${why}` });
    const handoffs = this.parts.handoffs;
    if (!handoffs?.targets.some((target) => target.name === member)) {
      failed("the call's squad has no such hand-off from this assistant.");
      return;
    }
    const answer = handoffs.request(member, reason, this.history);
    if ("refused" in answer) {
      failed(answer.refused);
      return;
    }
    const line = message || answer.bridgeLine;
    if (line) this.ctx.say(line);
    answer.next
      .then(async (change) => {
        if (this.ctx.isEnding()) return;
        await this.ctx.switchTo(change);
        this.ctx.carryOn();
      })
      .catch((error: unknown) => failed(describe(error)));
  }
}

function promptKey(prompt: ModelPrompt): string {
  return JSON.stringify([prompt.instructions, prompt.tools.map((tool) => tool.name)]);
}

function reasonOf(call: ToolCall): string {
  try {
    const args: unknown = JSON.parse(call.arguments || "{}");
    if (typeof args === "object" && args !== null && "reason" in args && typeof args.reason === "string")
      return args.reason.trim();
  } catch {
    // A reason is only for the log.
  }
  return "";
}
