import { runToolCall, type SpeechModelClientOptions, type ToolOutcome } from "../shared/speech-model-client.ts";
import type { ToolCall } from "../types.ts";
import type { LiveServerMessage } from "./server-messages.ts";

type FunctionCall = NonNullable<NonNullable<LiveServerMessage["toolCall"]>["functionCalls"]>[number];

/**
 * The model's `toolCall`s: each function runs at once, and once every call of the message has an
 * outcome they go back together as one `toolResponse` (`functionResponses` matched by `id`), after
 * which the model goes on by itself. A `toolCallCancellation` (the caller spoke over the model)
 * aborts the named calls and drops their answers.
 */
export class LiveToolCalls {
  private readonly running = new Map<string, AbortController>();
  private calls = 0;

  constructor(
    private readonly options: Pick<SpeechModelClientOptions<unknown>, "runTool" | "sink" | "now">,
    private readonly send: (message: Record<string, unknown>) => void,
  ) {}

  /** A call is waiting for its answer. */
  get waiting(): boolean {
    return this.running.size > 0;
  }

  run(functionCalls: FunctionCall[]): void {
    const now = this.options.now ?? Date.now;
    const runs = functionCalls.map(async (fc) => {
      const call: ToolCall = {
        id: fc.id ?? `call_${++this.calls}`,
        name: fc.name,
        arguments: JSON.stringify(fc.args ?? {}),
      };
      const abort = new AbortController();
      this.running.set(call.id, abort);
      const started = now();
      const outcome = await runToolCall(this.options.runTool, call, abort.signal);
      this.options.sink.onToolCall?.(call, outcome, now() - started);
      return { call, outcome, cancelled: abort.signal.aborted, named: fc.id !== undefined };
    });
    void Promise.all(runs).then((done) => {
      for (const { call } of done) this.running.delete(call.id);
      const answered = done.filter((run) => !run.cancelled);
      // "none": the call is ending, and an answer would only make the model speak over the hang-up.
      if (answered.length === 0 || answered.some((run) => run.outcome.followUp === "none")) return;
      const functionResponses = answered.map(({ call, outcome, named }) => ({
        ...(named ? { id: call.id } : {}),
        name: call.name,
        response: functionResponse(outcome),
      }));
      this.send({ toolResponse: { functionResponses } });
    });
  }

  cancel(ids: string[]): void {
    for (const id of ids) this.running.get(id)?.abort();
  }

  abortAll(): void {
    for (const abort of this.running.values()) abort.abort();
  }
}

/**
 * The `response` object of a `FunctionResponse`: the reference's `output` key for a result and
 * `error` for a failure. A follow-up the engine needs said (a goodbye before it hangs up) rides
 * along as `instructions`: the Live API has no message that asks for a particular reply.
 */
function functionResponse(outcome: ToolOutcome): Record<string, unknown> {
  const body: Record<string, unknown> = outcome.ok ? { output: outcome.content } : { error: outcome.content };
  if (typeof outcome.followUp === "object") body.instructions = outcome.followUp.instructions;
  return body;
}
