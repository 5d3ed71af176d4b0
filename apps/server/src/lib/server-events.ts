import type { CallChannel } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";

/**
 * What happened in a workspace that other modules react to (webhooks, metering, post-call analysis),
 * announced by the module where it happened once it is saved. The bus is in-process and
 * fire-and-forget: a listener that needs durability (a webhook delivery, an analysis) enqueues a job
 * on the durable runner from its listener; the emitter never waits for listeners, so ending a call
 * never waits for a slow receiver.
 */
export interface ServerEventMap {
  /** A call's session started (the caller joined); its log is `in_progress`. */
  "call.started": { workspaceId: string; callId: string; agentId: string; channel: CallChannel };
  /** A call's log was written with its final status, transcript, cost and recording. */
  "call.ended": {
    workspaceId: string;
    callId: string;
    agentId: string;
    channel: CallChannel;
    status: "completed" | "failed";
    durationSeconds: number;
  };
  /** A call was handed to a human (cold or warm). */
  "call.transferred": { workspaceId: string; callId: string; agentId: string; destination: string };
  /** A squad's member handed the call to another (issue 31); `agentId` is the assistant that took over. */
  "call.handoff": {
    workspaceId: string;
    callId: string;
    agentId: string;
    from: string;
    to: string;
    reason: string;
    atMs: number;
  };
  /** A campaign reached `completed`. */
  "batch.completed": { workspaceId: string; batchCallId: string };
  /** A knowledge document finished processing (`ready` or `failed`). */
  "document.ready": { workspaceId: string; documentId: string };
  /** A phone number was created, changed (assistant, name) or deleted. */
  "phone_number.updated": { workspaceId: string; phoneNumberId: string; action: "created" | "updated" | "deleted" };
  /** A test-suite run finished (passed, failed, error or cancelled) and its results are saved. */
  "test.run.completed": { workspaceId: string; runId: string };
}

export type ServerEventType = keyof ServerEventMap;
type Listener<T extends ServerEventType> = (event: ServerEventMap[T]) => void | Promise<void>;

export class ServerEvents {
  private readonly listeners = new Map<ServerEventType, Listener<ServerEventType>[]>();
  /** Listeners still at work (writing a webhook's delivery, a call's metering job). */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log?: FastifyBaseLogger) {}

  on<T extends ServerEventType>(type: T, listener: Listener<T>): () => void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener as Listener<ServerEventType>);
    this.listeners.set(type, list);
    return () => {
      const at = list.indexOf(listener as Listener<ServerEventType>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** Calls every listener without waiting for it; a listener's failure is logged, never thrown. */
  emit<T extends ServerEventType>(type: T, event: ServerEventMap[T]): void {
    for (const listener of this.listeners.get(type) ?? []) {
      try {
        const result = listener(event);
        if (result instanceof Promise) {
          const running = result.catch((error: unknown) =>
            this.log?.error({ err: error, event: type }, "a server event listener failed"),
          );
          this.pending.add(running);
          void running.finally(() => this.pending.delete(running));
        }
      } catch (error) {
        this.log?.error({ err: error, event: type }, "a server event listener failed");
      }
    }
  }

  /**
   * Resolves once every listener started so far has finished, or after `timeoutMs` (false then). A
   * stopping process waits here before it closes its database: the last calls' `call.ended` (their
   * webhooks, their metering) is written, not lost to a closed pool.
   */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
      });
      await Promise.race([Promise.allSettled([...this.pending]), late]);
      clearTimeout(timer);
    }
    return true;
  }
}
