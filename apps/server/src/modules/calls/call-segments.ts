import type { Assistant, CallCostBreakdown, CallSegment } from "@parley/contract";
import { UsageMeter } from "../billing/usage-meter.ts";
import { callCost } from "./call-cost.ts";

/** One assistant's stretch of a call while it runs. */
interface OpenSegment {
  assistant: Assistant;
  member: string | null;
  fromMember: string | null;
  reason: string | null;
  startedAtMs: number;
  endedAtMs: number | null;
  /** What this stretch's model and voice used. */
  usage: UsageMeter;
  latencies: number[];
  turns: number;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * Which assistant ran which stretch of a call (issue 31): each stretch meters its own model and
 * voice, counts its turns and their latency, and is priced at its own assistant's providers; the
 * call's cost is the sum of its stretches' (so metering covers the whole call).
 */
export class CallSegments {
  private readonly segments: OpenSegment[] = [];

  constructor(first: { assistant: Assistant; member: string | null }) {
    this.segments.push(this.open(first.assistant, first.member, null, null, 0));
  }

  /** The running stretch's meter: the next assistant's providers are wrapped with the next one's. */
  get usage(): UsageMeter {
    return this.current.usage;
  }

  get current(): OpenSegment {
    const last = this.segments.at(-1);
    if (!last) throw new Error("a call without segments");
    return last;
  }

  get count(): number {
    return this.segments.length;
  }

  /** The call passed to `assistant` at `atMs`. */
  handOff(
    next: { assistant: Assistant; member: string; from: string; reason: string; usage: UsageMeter },
    atMs: number,
  ) {
    this.current.endedAtMs = atMs;
    const segment = this.open(next.assistant, next.member, next.from, next.reason, atMs);
    segment.usage = next.usage;
    this.segments.push(segment);
  }

  /** A turn of the running stretch; `voiceToVoiceMs` null when its reply was never heard. */
  turn(voiceToVoiceMs: number | null): void {
    this.current.turns += 1;
    if (voiceToVoiceMs !== null) this.current.latencies.push(voiceToVoiceMs);
  }

  /** The call's cost: each stretch at its own assistant's prices, summed; and the stretches for the log. */
  close(
    durationMs: number,
    telephonyPerMinute: number,
  ): { cost: number; breakdown: CallCostBreakdown; segments: CallSegment[] } {
    const priced = this.segments.map((segment) => {
      const ended = segment.endedAtMs ?? durationMs;
      const cost = callCost(segment.assistant, Math.max(0, ended - segment.startedAtMs), {
        telephonyPerMinute,
        usage: segment.usage.usage(),
      });
      return { segment, ended, cost };
    });
    const segments = priced.map(({ segment, ended, cost }) => ({
      agent_id: segment.assistant.id,
      agent_name: segment.assistant.name,
      member: segment.member,
      started_at_ms: Math.round(segment.startedAtMs),
      ended_at_ms: Math.round(ended),
      reason: segment.reason,
      from_member: segment.fromMember,
      cost: cost.cost,
      latency_p50_ms: median(segment.latencies),
      turns: segment.turns,
    }));
    return { ...sumCosts(priced.map((p) => p.cost.breakdown)), segments };
  }

  private open(
    assistant: Assistant,
    member: string | null,
    fromMember: string | null,
    reason: string | null,
    atMs: number,
  ): OpenSegment {
    return {
      assistant,
      member,
      fromMember,
      reason,
      startedAtMs: atMs,
      endedAtMs: null,
      usage: new UsageMeter(),
      latencies: [],
      turns: 0,
    };
  }
}

/** The stretches' breakdowns as one: components summed, usage lines side by side. */
function sumCosts(parts: CallCostBreakdown[]): { cost: number; breakdown: CallCostBreakdown } {
  const sum = (pick: (b: CallCostBreakdown) => number) => round(parts.reduce((n, b) => n + pick(b), 0));
  const minutes = sum((b) => b.minutes);
  const breakdown: CallCostBreakdown = {
    minutes,
    stt: sum((b) => b.stt),
    llm: sum((b) => b.llm),
    tts: sum((b) => b.tts),
    telephony: sum((b) => b.telephony),
    platform: sum((b) => b.platform),
    per_minute: 0,
    currency: "USD",
    usage: parts.flatMap((b) => b.usage ?? []),
  };
  const cost = round(breakdown.stt + breakdown.llm + breakdown.tts + breakdown.telephony + breakdown.platform);
  breakdown.per_minute = minutes > 0 ? round(cost / minutes) : 0;
  return { cost, breakdown };
}
