// The Lighthouse bench's call history: a workspace a few weeks in has a page of calls, and /call-logs
// is measured with them, not empty. Calls are only made by calls (there is no API that writes a
// log), so the rows are written into the stopped server's PGlite database, through the server's
// own table definition, as its call runtime would have left them.

import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { TranscriptEntry, TurnMetricsEntry } from "@parley/contract";
import { drizzle } from "drizzle-orm/pglite";
import { callLogs } from "../apps/server/src/modules/call-logs/schema.ts";

export interface CallHistoryOwner {
  workspaceId: string;
  agents: { id: string; name: string }[];
  /** The workspace's numbers, which phone and SIP calls came in on. */
  numbers: { id: string; number: string }[];
}

/** A booking line's conversation: caller and assistant in turn. */
const LINES = [
  "Hi, I'd like to book an appointment for Thursday.",
  "Of course. Morning or afternoon?",
  "Afternoon, around three if you have it.",
  "Three fifteen is free on Thursday. Shall I book it under your name?",
  "Yes please, it's Dana Whitfield.",
  "Booked: Thursday at three fifteen for Dana Whitfield. Anything else?",
  "Is parking available?",
  "Parking is free for visitors for the first two hours.",
  "Great, thanks. Bye!",
  "Thanks for calling, see you Thursday.",
];

const CHANNELS = ["phone", "phone", "web", "sip", "widget", "phone"] as const;
const END_REASONS = ["caller_hangup", "caller_hangup", "assistant_ended", "end_phrase", "silence_timeout"];
const CALLERS = ["+14155550123", "+442079460958", "+14155550187", "+33142685300"];
const CALLS = 60;
const DAY_MS = 86_400_000;

function conversation(turns: number) {
  const transcript: TranscriptEntry[] = [];
  const metrics: TurnMetricsEntry[] = [];
  for (let i = 0; i < turns; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    transcript.push({ role, text: LINES[i % LINES.length] ?? "", at_ms: 1_500 + i * 4_200 });
    if (role === "assistant") {
      const llm = 280 + ((i * 37) % 200);
      const tts = 120 + ((i * 53) % 90);
      metrics.push({
        turn: metrics.length + 1,
        stt_ms: 140 + ((i * 29) % 80),
        llm_ttft_ms: llm,
        tts_ttfb_ms: tts,
        voice_to_voice_ms: 420 + llm + tts,
        engine_overhead_ms: 12 + (i % 7),
        end_of_turn_rule: "punctuation",
        end_of_turn_wait_ms: 300,
      });
    }
  }
  return { transcript, metrics, text: transcript.map((entry) => entry.text).join(" ") };
}

function callRow(owner: CallHistoryOwner, i: number, now: number): typeof callLogs.$inferInsert {
  const agent = owner.agents[i % owner.agents.length];
  const number = owner.numbers[i % owner.numbers.length];
  if (!agent || !number) throw new Error("the call history needs at least one assistant and one number");
  const channel = CHANNELS[i % CHANNELS.length] ?? "phone";
  const onLine = channel === "phone" || channel === "sip";
  const outbound = channel === "phone" && i % 5 === 0;
  const caller = CALLERS[i % CALLERS.length] ?? null;
  const failed = i % 13 === 7;
  const startedAt = new Date(now - i * (DAY_MS / 4) - ((i * 7_919) % 3_600_000));
  const durationSeconds = failed ? 2 : 35 + ((i * 97) % 380);
  const { transcript, metrics, text } = conversation(failed ? 1 : 4 + (i % 7));
  const minutes = Math.ceil(durationSeconds / 60);
  return {
    workspaceId: owner.workspaceId,
    agentId: agent.id,
    agentName: agent.name,
    channel,
    direction: outbound ? "outbound" : "inbound",
    fromNumber: onLine ? (outbound ? number.number : caller) : null,
    toNumber: onLine ? (outbound ? caller : number.number) : null,
    provider: onLine ? "sip_trunk" : null,
    providerCallId: onLine ? `bench-${i}` : null,
    phoneNumberId: onLine ? number.id : null,
    origin: channel === "widget" ? "https://clinic.example" : null,
    status: failed ? "failed" : "completed",
    endReason: failed ? "transcriber_error" : (END_REASONS[i % END_REASONS.length] ?? "caller_hangup"),
    startedAt,
    endedAt: new Date(startedAt.getTime() + durationSeconds * 1000),
    durationSeconds,
    cost: +(minutes * 0.09).toFixed(4),
    transcript,
    transcriptText: text,
    turnMetrics: metrics,
  };
}

/** Writes CALLS calls over the last fortnight into the PGlite database under `dataDir` (its server stopped). */
export async function writeCallHistory(dataDir: string, owner: CallHistoryOwner) {
  const client = new PGlite(path.join(dataDir, "pglite"), { extensions: { vector } });
  try {
    const now = Date.now();
    const rows = Array.from({ length: CALLS }, (_, i) => callRow(owner, i, now));
    await drizzle(client).insert(callLogs).values(rows);
  } finally {
    await client.close();
  }
}
