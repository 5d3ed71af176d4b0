import type { NodeState } from "@parley/contract";

type DrainListener = () => void | Promise<void>;

/**
 * This process's place among the nodes serving one database: its id, the routing key its socket
 * URLs carry, and whether it still takes new calls. A SIGTERM drains it (main.ts): readiness turns
 * 503, the SIP listener answers 503, the job runner stops claiming and hands back what it holds,
 * and the calls already running go on until they end or DRAIN_TIMEOUT. Every part that must react
 * registers here (`onDrain`), so main.ts names none of them.
 */
export class NodeLifecycle {
  readonly startedAt = new Date();
  private phase: Exclude<NodeState, "stopped"> = "ready";
  private readonly listeners = new Set<DrainListener>();
  private draining: Promise<void> | null = null;

  /**
   * @param id NODE_ID, or the host name and port when unset.
   * @param routingKey the id when NODE_ID was set (a load balancer routes on it); null for a single process.
   */
  constructor(
    readonly id: string,
    readonly routingKey: string | null,
  ) {}

  get state(): Exclude<NodeState, "stopped"> {
    return this.phase;
  }

  /** Takes new calls (no drain has begun). */
  get accepting(): boolean {
    return this.phase === "ready";
  }

  /** Runs `listener` when the drain begins (at once if it already has); returns the unsubscribe. */
  onDrain(listener: DrainListener): () => void {
    if (this.phase === "draining") void Promise.resolve().then(listener);
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops taking new work; resolves once every listener has reacted (a failing one is passed over). */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      this.phase = "draining";
      const listeners = [...this.listeners];
      this.listeners.clear();
      await Promise.allSettled(listeners.map(async (listener) => listener()));
    })();
    return this.draining;
  }
}
