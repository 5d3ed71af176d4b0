import type { FaultKind } from "@parley/contract";
import type { ChatMessage, LlmProvider, ToolCall } from "../providers/types.ts";
import type { SpeechOutput, Utterance } from "../speech/speech-output.ts";
import { type PiiVault, StreamUnmasker } from "../text/pii-vault.ts";
import { type BuiltInActions, type BuiltInOutcome, builtInToolSpecs, runBuiltInTool } from "./built-in-tools.ts";
import type { CallSettings } from "./call-settings.ts";
import { type HandoffToolContext, handoffToolSpecs, isHandoffTool, runHandoffTool } from "./handoff-tool.ts";
import type { Clock, ToolResult, ToolRunner } from "./types.ts";

/** Model rounds per caller turn (each tool result goes back to the model); stops a tool loop. */
const MAX_ROUNDS = 6;

export interface ConversationHooks {
  onLlmRequest?(): void;
  onLlmFirstToken?(): void;
  onToolCall?(call: ToolCall, result: ToolResult, durationMs: number): void;
  /** A tool call of a reply the caller cut short before it was heard: not run. */
  onToolSkipped?(call: ToolCall, reason: string): void;
  /** A reply was spoken to the end (not cut short). */
  onReplySpoken?(text: string): void;
}

/** What the conversation asks of the call's fault policy (fault-policy.ts). */
export interface ConversationFaults {
  /** The model failed a reply on its `attempt` (1, 2): true to ask it again. */
  /** `midStream`: the reply had started to come out when it broke. */
  modelFailed(provider: string, error: unknown, attempt: number, midStream: boolean): boolean;
  malformedToolCall(provider: string, error: unknown): void;
  toolFailed(name: string, error: unknown): void;
  /** A tool that has not answered by then gives the model a tool error. */
  toolTimeoutMs: number;
  /** Unique per call; a tool call's idempotency key is this and the model's id for the call. */
  callKey: string;
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
  faults: ConversationFaults;
  hooks?: ConversationHooks;
  director?: ConversationDirector;
  /** The assistant's hand-offs to other assistants (a squad member's `handoff_to_<name>` tools). */
  handoff?: Omit<HandoffToolContext, "history">;
  /**
   * PII redaction of the model's input: the model reads placeholders ([EMAIL_1]) for personal data,
   * and what it says and passes to tools has them filled in from the call's vault.
   */
  vault?: PiiVault | null;
}

/** Told to a model that reads placeholders, so it passes them on instead of asking again. */
export const PLACEHOLDER_NOTE =
  "Personal details the caller gives (card numbers, e-mail addresses, phone numbers, ids, dates of birth, names) reach you as placeholders such as [EMAIL_1]. Use a placeholder exactly as written wherever you need the value, in replies and tool arguments: it is filled in for you. Do not ask the caller to repeat a detail you have a placeholder for.";

/** The built-ins that act on the call (hang up, hand over, press keys): they wait for their reply to be heard. */
const SIDE_EFFECT_BUILT_INS = new Set(["end_call", "transfer_call", "send_dtmf"]);

/** A model round that failed after it had started speaking: its words so far are kept. */
class RoundFailed extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
  }
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
    const message: AssistantMessage = { role: "assistant", content: this.forModel(text) };
    this.messages.push(message);
    const utterance = this.options.output.say(text, options);
    utterance.onTruncate = (heard) => this.truncate(message, heard);
    return utterance;
  }

  /**
   * Answers a caller turn; with null, answers the conversation as it stands (an assistant that has
   * just taken the call over). Resolves when the reply is handed to speech (or abandoned).
   */
  async respond(userText: string | null): Promise<void> {
    this.cancel();
    const controller = new AbortController();
    this.current = controller;
    if (userText !== null) this.addUser(this.forModel(userText));
    try {
      const director = this.options.director;
      if (director && !(await director.beforeReply(this.messages))) return;
      let failures = 0;
      for (let round = 0; round < MAX_ROUNDS && !controller.signal.aborted; round++) {
        let outcome: Awaited<ReturnType<Conversation["round"]>>;
        try {
          outcome = await this.round(controller.signal, round === 0);
        } catch (error) {
          if (controller.signal.aborted) return;
          failures += 1;
          const midStream = error instanceof RoundFailed;
          const cause = error instanceof RoundFailed ? error.failure : error;
          if (!this.options.faults.modelFailed(this.options.llm.id, cause, failures, midStream)) return;
          round -= 1;
          continue;
        }
        const { calls, text, utterance } = outcome;
        if (controller.signal.aborted) return;
        if (calls.length === 0) {
          const spoken = utterance?.done ?? Promise.resolve();
          void spoken.then(() => {
            if (!utterance?.interrupted) this.options.hooks?.onReplySpoken?.(text);
          });
          return;
        }
        if (await this.runTools(calls, utterance, controller.signal)) return;
      }
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

  /**
   * One model request: its text streams into speech, its tool calls are collected. The utterance
   * begins with the first words, so anything said while the model is silent (the recovery line)
   * is not queued behind an empty reply. A stream that fails after words went out keeps them in the
   * history (RoundFailed), so the request asked again continues from what the caller heard.
   */
  private async round(signal: AbortSignal, first: boolean) {
    const { llm, settings, output, hooks } = this.options;
    let utterance: Utterance | null = null;
    const unmasker = this.options.vault ? new StreamUnmasker(this.options.vault) : null;
    const calls: ToolCall[] = [];
    let text = "";
    let gotToken = false;
    if (first) hooks?.onLlmRequest?.();
    try {
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
          utterance ??= output.begin();
          utterance.write(unmasker ? unmasker.push(chunk.text) : chunk.text);
        } else if (chunk.type === "tool_call") {
          calls.push(chunk.call);
        }
      }
    } catch (error) {
      if (unmasker) utterance?.write(unmasker.flush());
      utterance?.end();
      if (signal.aborted || !text.trim()) throw error;
      const partial: AssistantMessage = { role: "assistant", content: text.trim() };
      this.messages.push(partial);
      const said = utterance;
      if (said) said.onTruncate = (heard) => this.truncate(partial, heard);
      throw new RoundFailed(error);
    }
    if (unmasker) utterance?.write(unmasker.flush());
    utterance?.end();
    if (signal.aborted) {
      // Cut short while streaming: keep only what was heard.
      if (utterance?.heardText) this.messages.push({ role: "assistant", content: this.forModel(utterance.heardText) });
      return { calls: [], text, utterance };
    }
    const message: AssistantMessage = { role: "assistant", content: text.trim() };
    if (calls.length > 0) message.toolCalls = calls;
    this.messages.push(message);
    if (utterance) {
      const said = utterance;
      said.onTruncate = (heard) => this.truncate(message, heard);
      if (said.interrupted && said.heardText !== null) this.truncate(message, said.heardText);
    }
    return { calls, text: message.content, utterance };
  }

  /**
   * Runs the model's tool calls; true when one of them ends the call. A built-in that acts on the
   * call (hang up, transfer, keys) waits until its reply has been heard and is not run when the
   * caller cut that reply short. Other tools run at once, each with an idempotency key that stays
   * the same however often its request is retried.
   */
  private async runTools(calls: ToolCall[], utterance: Utterance | null, signal: AbortSignal): Promise<boolean> {
    let stop = false;
    for (const asked of calls) {
      if (signal.aborted) return true;
      // A tool gets the values behind the model's placeholders; the model keeps its placeholders.
      const vault = this.options.vault;
      const call = vault ? { ...asked, arguments: vault.unmask(asked.arguments) } : asked;
      const handoff = this.isHandoff(call.name);
      if ((SIDE_EFFECT_BUILT_INS.has(call.name) || handoff) && !stop) {
        if (utterance && !(await this.heard(utterance, signal))) {
          this.options.hooks?.onToolSkipped?.(call, "The caller interrupted the reply before it was heard.");
          return true;
        }
      }
      const started = this.options.clock.now();
      const malformed = malformedArguments(call);
      let result: ToolResult;
      if (malformed) {
        this.options.faults.malformedToolCall(this.options.llm.id, malformed);
        result = {
          ok: false,
          content: `The arguments were not valid JSON (${malformed.message}). Call the tool again with a JSON object.`,
        };
      } else if (handoff && !stop && this.options.handoff) {
        const outcome = await runHandoffTool({ ...this.options.handoff, history: () => this.messages }, call);
        result = outcome.result;
        stop ||= outcome.stop;
      } else {
        const builtIn: BuiltInOutcome | null = stop
          ? null
          : runBuiltInTool(this.options.settings, call, this.options.builtIns);
        if (builtIn) {
          result = builtIn.result;
          stop ||= builtIn.stop;
        } else {
          result = await this.runExternal(call, signal);
        }
      }
      if (signal.aborted && !stop) return true;
      this.options.hooks?.onToolCall?.(call, result, this.options.clock.now() - started);
      this.messages.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: this.forModel(result.content),
      });
    }
    return stop;
  }

  /** Resolves true once `utterance` has been spoken to its end, false when it was cut short first. */
  private async heard(utterance: Utterance, signal: AbortSignal): Promise<boolean> {
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([utterance.done, aborted]);
    return !utterance.interrupted && !signal.aborted;
  }

  /**
   * Runs a tool of the server's, never longer than the fault policy's tool timeout: a tool that has
   * not answered by then is aborted and the model hears a clear error to tell the caller.
   */
  private async runExternal(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const { tools: runner, faults, clock } = this.options;
    if (!runner?.tools().some((t) => t.name === call.name)) {
      return { ok: false, content: `Unknown tool "${call.name}".` };
    }
    const controller = new AbortController();
    const forward = () => controller.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    let timer: unknown = null;
    const timedOut = new Promise<ToolResult>((resolve) => {
      timer = clock.setTimeout(() => {
        controller.abort();
        const seconds = Math.round(faults.toolTimeoutMs / 100) / 10;
        resolve({
          ok: false,
          content: `The tool "${call.name}" did not answer within ${seconds} s and was stopped. Tell the caller it could not be done right now and offer to try again.`,
          fault: { kind: "timeout", error: `no answer within ${faults.toolTimeoutMs} ms` },
        });
      }, faults.toolTimeoutMs);
    });
    const ran = runner.run(call, { signal: controller.signal, idempotencyKey: `${faults.callKey}:${call.id}` }).catch(
      (error: unknown): ToolResult => ({
        ok: false,
        content: `Tool failed: ${describe(error)}`,
        fault: { kind: "failed", error: describe(error) },
      }),
    );
    try {
      const result = await Promise.race([ran, timedOut]);
      if (result.fault && !signal.aborted) faults.toolFailed(call.name, new ToolFault(result.fault));
      return result;
    } finally {
      clock.clearTimeout(timer);
      signal.removeEventListener("abort", forward);
    }
  }

  private systemPrompt(): string {
    const { director, systemPrompt, vault } = this.options;
    const prompt = director ? director.systemPrompt(systemPrompt) : systemPrompt;
    return vault ? `${prompt}\n\n${PLACEHOLDER_NOTE}` : prompt;
  }

  /** What the model may read of `text`: with PII redaction of its input, personal data as placeholders. */
  private forModel(text: string): string {
    return this.options.vault ? this.options.vault.mask(text) : text;
  }

  private isHandoff(name: string): boolean {
    return isHandoffTool(this.options.handoff?.handoffs, name);
  }

  private toolSpecs() {
    const specs = [
      ...(this.options.tools?.tools() ?? []),
      ...builtInToolSpecs(this.options.settings),
      ...handoffToolSpecs(this.options.handoff?.handoffs),
    ];
    return specs.length > 0 ? specs : undefined;
  }

  private truncate(message: AssistantMessage, heard: string): void {
    if (heard || message.toolCalls) {
      message.content = this.forModel(heard);
      return;
    }
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
  }
}

/** A tool's failure as the fault policy records it: its kind is the runner's own word. */
class ToolFault extends Error {
  readonly faultKind: FaultKind;
  constructor(fault: NonNullable<ToolResult["fault"]>) {
    super(fault.error);
    this.name = "ToolFault";
    this.faultKind = fault.kind;
  }
}

/** Why a tool call's arguments are not a JSON object; null when they are (or are empty). */
function malformedArguments(call: ToolCall): Error | null {
  const text = call.arguments.trim();
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? null : new Error("not an object");
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
