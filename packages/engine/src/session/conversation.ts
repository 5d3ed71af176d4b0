import type { ChatMessage, LlmProvider, ToolCall } from "../providers/types.ts";
import type { SpeechOutput, Utterance } from "../speech/speech-output.ts";
import { type BuiltInActions, type BuiltInOutcome, builtInToolSpecs, runBuiltInTool } from "./built-in-tools.ts";
import type { CallSettings } from "./call-settings.ts";
import type { Clock, ToolResult, ToolRunner } from "./types.ts";

/** Model rounds per caller turn (each tool result goes back to the model); stops a tool loop. */
const MAX_ROUNDS = 6;

export interface ConversationHooks {
  onLlmRequest?(): void;
  onLlmFirstToken?(): void;
  onToolCall?(call: ToolCall, result: ToolResult, durationMs: number): void;
  onError?(message: string): void;
  /** A reply was spoken to the end (not cut short). */
  onReplySpoken?(text: string): void;
}

/**
 * Steers the conversation from outside the model (a workflow): what the model is told, and what
 * happens between a caller turn and the model's answer.
 */
export interface ConversationDirector {
  /** The system prompt of the next model request, built on the assistant's own. */
  systemPrompt(base: string): string;
  /**
   * Runs once the caller's turn is in the history, before the model answers it; false when the
   * model must not answer (the call is ending).
   */
  beforeReply(history: readonly ChatMessage[]): Promise<boolean>;
}

export interface ConversationOptions {
  settings: CallSettings;
  llm: LlmProvider;
  tools?: ToolRunner;
  output: SpeechOutput;
  clock: Clock;
  systemPrompt: string;
  builtIns: BuiltInActions;
  hooks?: ConversationHooks;
  director?: ConversationDirector;
}

type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/**
 * The history and the model loop: a caller turn goes to the model, its text streams into speech,
 * its tool calls run and their results go back until the model answers in words. Barge-in
 * cancels the loop and cuts the spoken message down to what the caller heard.
 */
export class Conversation {
  readonly messages: ChatMessage[] = [];
  private current: AbortController | null = null;

  constructor(private readonly options: ConversationOptions) {}

  /** True while the model or a tool is working on a reply. */
  get busy(): boolean {
    return this.current !== null;
  }

  /** Aborts the reply in progress (model stream and tools). */
  cancel(): void {
    this.current?.abort();
    this.current = null;
  }

  /** Says a fixed message and records it as the assistant's. */
  speak(text: string, options: { interruptible?: boolean } = {}): Utterance {
    const message: AssistantMessage = { role: "assistant", content: text };
    this.messages.push(message);
    const utterance = this.options.output.say(text, options);
    utterance.onTruncate = (heard) => this.truncate(message, heard);
    return utterance;
  }

  /** Answers a caller turn. Resolves when the reply is handed to speech (or abandoned). */
  async respond(userText: string): Promise<void> {
    this.cancel();
    const controller = new AbortController();
    this.current = controller;
    this.addUser(userText);
    try {
      const director = this.options.director;
      if (director && !(await director.beforeReply(this.messages))) return;
      for (let round = 0; round < MAX_ROUNDS && !controller.signal.aborted; round++) {
        const { calls, text, utterance } = await this.round(controller.signal, round === 0);
        if (controller.signal.aborted) return;
        if (calls.length === 0) {
          void utterance.done.then(() => {
            if (!utterance.interrupted) this.options.hooks?.onReplySpoken?.(text);
          });
          return;
        }
        if (await this.runTools(calls, controller.signal)) return;
      }
    } catch (error) {
      if (!controller.signal.aborted) this.options.hooks?.onError?.(`Language model failed: ${describe(error)}`);
    } finally {
      if (this.current === controller) this.current = null;
    }
  }

  private addUser(text: string): void {
    const last = this.messages.at(-1);
    // A turn the assistant never answered (the caller kept talking) merges with the next.
    if (last?.role === "user") last.content = `${last.content} ${text}`;
    else this.messages.push({ role: "user", content: text });
  }

  private async round(signal: AbortSignal, first: boolean) {
    const { llm, settings, output, hooks } = this.options;
    const utterance = output.begin();
    const calls: ToolCall[] = [];
    let text = "";
    let gotToken = false;
    if (first) hooks?.onLlmRequest?.();
    const stream = llm.chat({
      messages: [{ role: "system", content: this.systemPrompt() }, ...this.messages],
      tools: this.toolSpecs(),
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      signal,
    });
    for await (const chunk of stream) {
      if (signal.aborted) break;
      if (!gotToken && chunk.type !== "usage") {
        gotToken = true;
        if (first) hooks?.onLlmFirstToken?.();
      }
      if (chunk.type === "text") {
        text += chunk.text;
        utterance.write(chunk.text);
      } else if (chunk.type === "tool_call") {
        calls.push(chunk.call);
      }
    }
    utterance.end();
    if (signal.aborted) {
      // Cut short while streaming: keep only what was heard.
      if (utterance.heardText) this.messages.push({ role: "assistant", content: utterance.heardText });
      return { calls: [], text, utterance };
    }
    const message: AssistantMessage = { role: "assistant", content: text.trim() };
    if (calls.length > 0) message.toolCalls = calls;
    this.messages.push(message);
    utterance.onTruncate = (heard) => this.truncate(message, heard);
    if (utterance.interrupted && utterance.heardText !== null) this.truncate(message, utterance.heardText);
    return { calls, text: message.content, utterance };
  }

  /** Runs the model's tool calls; true when one of them ends the call. */
  private async runTools(calls: ToolCall[], signal: AbortSignal): Promise<boolean> {
    let stop = false;
    for (const call of calls) {
      if (signal.aborted) return true;
      const started = this.options.clock.now();
      const builtIn: BuiltInOutcome | null = stop
        ? null
        : runBuiltInTool(this.options.settings, call, this.options.builtIns);
      let result: ToolResult;
      if (builtIn) {
        result = builtIn.result;
        stop ||= builtIn.stop;
      } else {
        result = await this.runExternal(call, signal);
      }
      this.options.hooks?.onToolCall?.(call, result, this.options.clock.now() - started);
      this.messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
    }
    return stop;
  }

  private async runExternal(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const runner = this.options.tools;
    if (!runner?.tools().some((t) => t.name === call.name)) {
      return { ok: false, content: `Unknown tool "${call.name}".` };
    }
    try {
      return await runner.run(call, { signal });
    } catch (error) {
      return { ok: false, content: `Tool failed: ${describe(error)}` };
    }
  }

  private systemPrompt(): string {
    const { director, systemPrompt } = this.options;
    return director ? director.systemPrompt(systemPrompt) : systemPrompt;
  }

  private toolSpecs() {
    const specs = [...(this.options.tools?.tools() ?? []), ...builtInToolSpecs(this.options.settings)];
    return specs.length > 0 ? specs : undefined;
  }

  private truncate(message: AssistantMessage, heard: string): void {
    if (heard || message.toolCalls) {
      message.content = heard;
      return;
    }
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
