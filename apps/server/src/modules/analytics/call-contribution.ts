import type { CallChannel, CallLog, LatencyComponent, TurnMetricsEntry, UsageComponent } from "@parley/contract";
import { isAnswered, isErrorEnd, passedOf } from "./call-measures.ts";
import { DURATION_BOUNDS_S, histogramOf, LATENCY_BOUNDS_MS } from "./histograms.ts";

/** The rollup row a call adds to. */
export interface RollupKey {
  hour: Date;
  agentId: string | null;
  agentVersion: number | null;
  phoneNumber: string | null;
  batchCallId: string | null;
  channel: CallChannel;
  endReason: string;
  squadMember: string | null;
}

export interface CallCosts {
  cost: number;
  costLlm: number;
  costStt: number;
  costTts: number;
  costTelephony: number;
  costPlatform: number;
}

/** What one call adds to its rollup row. */
export interface Contribution extends CallCosts {
  attempts: number;
  answered: number;
  failed: number;
  errorCalls: number;
  transfers: number;
  analysed: number;
  passed: number;
  durationSeconds: number;
  durationHist: number[];
  latency: Record<LatencyComponent, { hist: number[]; sum: number }>;
}

/** A call as analytics keeps it: its row's key, what it adds, and what later changes are judged against. */
export interface RolledCall {
  key: RollupKey;
  agentName: string;
  endedAt: Date;
  answered: boolean;
  errorEnd: boolean;
  passed: boolean | null;
  contribution: Contribution;
}

const HOUR_MS = 3_600_000;
/** Channels without a number of the workspace's (browser, widget, simulated callers). */
const NUMBERLESS_CHANNELS: readonly CallChannel[] = ["web", "widget", "test"];

/** Which turn field measures each latency component. */
const LATENCY_FIELDS: Record<LatencyComponent, (turn: TurnMetricsEntry) => number | null | undefined> = {
  end_of_turn: (t) => t.end_of_turn_wait_ms,
  transcriber: (t) => t.stt_ms,
  model: (t) => t.llm_ttft_ms,
  voice: (t) => t.tts_ttfb_ms,
  voice_to_voice: (t) => t.voice_to_voice_ms,
};

/** The line components that make each cost component (the model's input and output are one). */
const COST_LINES: Record<Exclude<keyof CallCosts, "cost" | "costPlatform">, UsageComponent[]> = {
  costLlm: ["llm_input", "llm_output"],
  costStt: ["stt"],
  costTts: ["tts"],
  costTelephony: ["telephony"],
};
const BREAKDOWN_FIELD = { costLlm: "llm", costStt: "stt", costTts: "tts", costTelephony: "telephony" } as const;

/** The workspace's own number on a phone call: the one called (inbound) or calling (outbound). */
export function ownNumberOf(call: Pick<CallLog, "channel" | "direction" | "from_number" | "to_number">) {
  if (NUMBERLESS_CHANNELS.includes(call.channel)) return null;
  return (call.direction === "inbound" ? call.to_number : call.from_number) ?? null;
}

/** Per component: its usage lines' sum when the call has such lines, else the breakdown's figure. */
export function costsOf(call: Pick<CallLog, "cost" | "cost_breakdown">): CallCosts {
  const breakdown = call.cost_breakdown;
  const lines = breakdown?.usage ?? [];
  const component = (key: keyof typeof COST_LINES) => {
    const own = lines.filter((l) => COST_LINES[key].includes(l.component));
    if (own.length > 0) return own.reduce((sum, l) => sum + l.cost, 0);
    return breakdown?.[BREAKDOWN_FIELD[key]] ?? 0;
  };
  return {
    cost: call.cost,
    costLlm: component("costLlm"),
    costStt: component("costStt"),
    costTts: component("costTts"),
    costTelephony: component("costTelephony"),
    costPlatform: breakdown?.platform ?? 0,
  };
}

function latencyOf(turns: readonly TurnMetricsEntry[]): Contribution["latency"] {
  const out = {} as Contribution["latency"];
  for (const [component, field] of Object.entries(LATENCY_FIELDS) as [
    LatencyComponent,
    typeof LATENCY_FIELDS.model,
  ][]) {
    const values = turns.map(field).filter((v): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0);
    out[component] = { hist: histogramOf(LATENCY_BOUNDS_MS, values), sum: values.reduce((a, b) => a + b, 0) };
  }
  return out;
}

const transferred = (call: Pick<CallLog, "end_reason" | "events">) =>
  call.end_reason === "transferred" || call.events.some((e) => e.type === "transfer");

/** What an ended call adds to analytics (see call-measures.ts for what each count means). */
export function rolledCallOf(call: CallLog): RolledCall {
  const started = Date.parse(call.started_at);
  const answered = isAnswered({ status: call.status, durationSeconds: call.duration_seconds });
  const errorEnd = isErrorEnd(call.end_reason);
  const passed = passedOf(call.analysis);
  const duration = answered ? call.duration_seconds : 0;
  return {
    key: {
      hour: new Date(Math.floor(started / HOUR_MS) * HOUR_MS),
      agentId: call.agent_id,
      agentVersion: call.agent_version ?? null,
      phoneNumber: ownNumberOf(call),
      batchCallId: call.batch_call_id,
      channel: call.channel,
      endReason: call.end_reason ?? "",
      // A squad's call counts under the member that ended it (its last segment's); null for one assistant.
      squadMember: call.segments?.at(-1)?.member ?? null,
    },
    agentName: call.agent_name,
    endedAt: new Date(call.ended_at ?? call.started_at),
    answered,
    errorEnd,
    passed,
    contribution: {
      attempts: 1,
      answered: answered ? 1 : 0,
      failed: call.status === "failed" ? 1 : 0,
      errorCalls: errorEnd ? 1 : 0,
      transfers: transferred(call) ? 1 : 0,
      analysed: passed === null ? 0 : 1,
      passed: passed ? 1 : 0,
      durationSeconds: duration,
      durationHist: histogramOf(DURATION_BOUNDS_S, answered ? [duration] : []),
      ...costsOf(call),
      latency: latencyOf(call.turn_metrics),
    },
  };
}
