import type { Assistant } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { ServerEventMap, ServerEvents } from "../../lib/server-events.ts";
import { findAssistant } from "../assistants/service.ts";

export type EndedCall = ServerEventMap["call.ended"];

/** What a module does once a call's log is written: metering, webhooks, post-call analysis, analytics' rollup. */
export interface CallEndFollowUp {
  /** Gets the call and its assistant (undefined once the assistant is deleted). */
  run(call: EndedCall, assistant: Assistant | undefined): Promise<void>;
  /** Reports a failure of `run` (or of reading the assistant): the call's other follow-ups still run. */
  onError(error: unknown, call: EndedCall): void;
}

/**
 * The modules' reactions to a call's end run for one ended call at a time, with the assistant read
 * once for all of them. As three listeners of their own, 50 calls hanging up together put ≈300
 * statements (three reads of the same assistant per call among them) into the database's queue
 * within a second; PGlite and the PostgreSQL pool serve in order, so every request meanwhile (a
 * health check, a page) waited behind all of them: 100–500 ms. Taking turns, a request waits
 * behind one follow-up's statement, and the 50 calls' follow-ups take ≈5 statements each.
 */
class CallEndFollowUps {
  private readonly followUps = new Set<CallEndFollowUp>();
  /** The last ended call queued; the next one starts when it is done. */
  private tail: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly onEmpty: () => void,
  ) {
    // The bus keeps the returned promise until the follow-ups are done: a stopping server waits for them.
    this.unsubscribe = ctx.events.on("call.ended", (call) => this.queue(call));
  }

  add(followUp: CallEndFollowUp): () => void {
    this.followUps.add(followUp);
    return () => {
      this.followUps.delete(followUp);
      if (this.followUps.size > 0) return;
      this.unsubscribe();
      this.onEmpty();
    };
  }

  private queue(call: EndedCall): Promise<void> {
    const next = this.tail.then(() => this.followUp(call));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async followUp(call: EndedCall): Promise<void> {
    const followUps = [...this.followUps];
    let assistant: Assistant | undefined;
    try {
      assistant = await findAssistant(this.ctx.db, { workspaceId: call.workspaceId }, call.agentId);
    } catch (error) {
      for (const followUp of followUps) followUp.onError(error, call);
      return;
    }
    for (const followUp of followUps) {
      try {
        await followUp.run(call, assistant);
      } catch (error) {
        followUp.onError(error, call);
      }
    }
  }
}

/** One lane per event bus (per app: tests run several side by side). */
const lanes = new WeakMap<ServerEvents, CallEndFollowUps>();

/** Runs `followUp` for every call that ends, in turn with the other modules' follow-ups; returns the stop function. */
export function followCallEnds(ctx: AppContext, followUp: CallEndFollowUp): () => void {
  let lane = lanes.get(ctx.events);
  if (!lane) {
    lane = new CallEndFollowUps(ctx, () => lanes.delete(ctx.events));
    lanes.set(ctx.events, lane);
  }
  return lane.add(followUp);
}
