import type { ChatMessage } from "../providers/types.ts";
import type { WorkflowFinish } from "../workflow/types.ts";
import type { WorkflowRunner } from "../workflow/workflow-runner.ts";
import type { ConversationDirector } from "./conversation.ts";
import type { CallEvent, EndReason } from "./types.ts";

/** What the director needs from the call around it. */
export interface WorkflowDirectorContext {
  emit(event: CallEvent): void;
  /** Milliseconds since the call started. */
  at(): number;
  end(reason: EndReason, options: { farewell?: string; beforeEnd?: () => void }): void;
  /** A hand-off node asks to pass the call to another squad member (issue 31). */
  handOff?(member: string, reason: string, message: string): void;
}

/**
 * Puts a workflow in charge of the conversation: the active step's prompt goes to the model, each
 * caller turn advances the workflow before the model answers, tool and knowledge nodes show in the
 * call's tool calls, and a transfer or end node ends the call after saying its message.
 */
export class WorkflowDirector implements ConversationDirector {
  /** Ends the workflow's model requests and tools when the call ends. */
  private readonly lifetime = new AbortController();

  constructor(
    private readonly runner: WorkflowRunner,
    private readonly ctx: WorkflowDirectorContext,
  ) {}

  /** Enters the start node; its greeting replaces the assistant's first message (null: the caller starts). */
  greeting(): string | null {
    return this.runner.begin(this.ctx.at());
  }

  systemPrompt(base: string): string {
    return this.runner.systemPrompt(base);
  }

  async beforeReply(history: readonly ChatMessage[]): Promise<boolean> {
    if (this.runner.finished || this.lifetime.signal.aborted) return false;
    // Not cut by a barge-in: what the caller said is decided on whole, and the next turn queues behind.
    const turn = await this.runner.advance(history, {
      atMs: () => this.ctx.at(),
      signal: this.lifetime.signal,
      observer: {
        onStepRun: (run) =>
          this.ctx.emit({
            type: "tool_call",
            name: run.name,
            arguments: run.arguments,
            result: run.result,
            ok: run.ok,
            durationMs: run.durationMs,
            atMs: this.ctx.at(),
          }),
        onError: (message) => this.ctx.emit({ type: "error", message }),
      },
    });
    if (turn.finish) this.finish(turn.finish);
    if (turn.handoff) {
      const { member, nodeName, message } = turn.handoff;
      this.ctx.handOff?.(member, `The workflow reached "${nodeName || "hand-off"}".`, message);
    }
    return !this.runner.finished && !this.lifetime.signal.aborted;
  }

  /** The call is over: requests still running are abandoned. */
  close(): void {
    this.lifetime.abort();
  }

  private finish(finish: WorkflowFinish): void {
    const farewell = finish.message || undefined;
    if (finish.type === "end") {
      this.ctx.end("assistant_ended", { farewell });
      return;
    }
    this.ctx.end("transferred", {
      farewell,
      beforeEnd: () =>
        this.ctx.emit({
          type: "transfer",
          destination: { name: finish.nodeName || finish.destination, number: finish.destination },
          atMs: this.ctx.at(),
        }),
    });
  }
}
