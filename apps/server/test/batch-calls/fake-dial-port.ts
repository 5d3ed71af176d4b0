import { randomUUID } from "node:crypto";
import type { CallAttemptOutcome } from "@parley/contract";
import type { TenantScope } from "../../src/lib/tenant-scope.ts";
import type {
  CallSettled,
  DialPort,
  DialRequest,
  DialResult,
  OrphanedDial,
} from "../../src/modules/batch-calls/dial-port.ts";

interface FakeCall {
  id: string;
  number: string;
  at: number;
  settled: CallSettled | null;
}

/**
 * A phone network in memory for dialer tests and the benchmark: every dial is recorded, each call
 * ends after `holdMs` with the outcome `outcomeOf` gives for its number and attempt, and the
 * highest number of calls up at once is kept.
 */
export class FakeDialPort implements DialPort {
  readonly calls = new Map<string, FakeCall>();
  readonly dials: { number: string; at: number }[] = [];
  live = 0;
  maxLive = 0;
  private listener: (() => void) | null = null;

  constructor(
    private readonly behaviour: {
      outcomeOf?: (number: string, attempt: number) => CallAttemptOutcome;
      holdMs?: (number: string) => number;
      cost?: number;
    } = {},
  ) {}

  dialsOf(number: string): number {
    return this.dials.filter((d) => d.number === number).length;
  }

  async dial(request: DialRequest): Promise<DialResult> {
    const attempt = this.dialsOf(request.number) + 1;
    const call: FakeCall = { id: randomUUID(), number: request.number, at: Date.now(), settled: null };
    this.calls.set(call.id, call);
    this.dials.push({ number: request.number, at: call.at });
    this.live += 1;
    this.maxLive = Math.max(this.maxLive, this.live);
    const outcome = this.behaviour.outcomeOf?.(request.number, attempt) ?? "answered";
    const end = () => {
      call.settled = { outcome, cost: this.behaviour.cost ?? 0 };
      this.live -= 1;
      this.listener?.();
    };
    const hold = this.behaviour.holdMs?.(request.number) ?? 0;
    if (hold <= 0) queueMicrotask(end);
    else setTimeout(end, hold);
    return { kind: "placed", callId: call.id };
  }

  async settled(_tenant: TenantScope, callIds: readonly string[]): Promise<Map<string, CallSettled>> {
    const over = new Map<string, CallSettled>();
    for (const id of callIds) {
      const settled = this.calls.get(id)?.settled;
      if (settled) over.set(id, settled);
    }
    return over;
  }

  async findPlacedCall(_tenant: TenantScope, dial: OrphanedDial): Promise<string | null> {
    const since = dial.since.getTime() - 1_000;
    return [...this.calls.values()].find((c) => c.number === dial.number && c.at >= since)?.id ?? null;
  }

  onSettle(listener: () => void): void {
    this.listener = listener;
  }
}
