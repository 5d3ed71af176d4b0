// Capacity of Parley's processes (issue 28 item 4): how many simultaneous calls one process carries
// before the p95 turn latency degrades by more than 20 %, for browser calls (the realtime socket)
// and Twilio media-stream calls, and how that scales from 1 to 3 processes behind HAProxy on this
// machine. The recogniser, the model and the voice are instant doubles (cluster-instant-vendor.ts,
// a scripted OpenAI-compatible model on 127.0.0.1), so what degrades is Parley's own work: the VAD,
// end of turn, the call pipeline, sockets and the database.
//
// Each caller (callers.ts, a process of its own) speaks a line of eSpeak speech, waits for
// the reply, lets it play and speaks again; a turn's latency is measured on the caller's clock from
// its last voiced frame to the first audible frame of the reply, beside the voice_to_voice_ms the
// call logs store. At each level all calls run at once; the ladder stops at the first level whose
// p95 is more than 20 % above the one-call baseline (or where a turn goes unanswered).
//
// CLUSTER_BENCH_NODES=1,3  CLUSTER_BENCH_KINDS=browser,twilio  CLUSTER_BENCH_TURNS=4
// CLUSTER_BENCH_BASELINE_TURNS=12  CLUSTER_BENCH_LEVELS=4,8,12,16,24,32,48 (one process's ladder)
// CLUSTER_BENCH_DIRECT=1: the one-process runs without HAProxy.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { CallLog } from "@parley/contract";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { freshPostgresDatabase } from "../apps/server/test/support/postgres-database.ts";
import { startScriptedLlm } from "../apps/server/test/support/scripted-llm.ts";
import { prepareBenchWorkspace, request } from "./bench-workspace.ts";
import type { CallersLoad, CallersMessage, CallKind, CallOutcome, LevelOrder } from "./callers.ts";
import { ADMIN, type BenchNodes, startBenchNodes, startDirectNode } from "./cluster-nodes.ts";
import type { BenchResult } from "./run.ts";

const list = (value: string | undefined, fallback: string) => (value ?? fallback).split(",").map((v) => v.trim());
const NODE_COUNTS = list(process.env.CLUSTER_BENCH_NODES, "1,3").map(Number);
const KINDS = list(process.env.CLUSTER_BENCH_KINDS, "browser,twilio") as CallKind[];
const TURNS = Number(process.env.CLUSTER_BENCH_TURNS ?? 4);
const BASELINE_TURNS = Number(process.env.CLUSTER_BENCH_BASELINE_TURNS ?? 12);
const LEVELS = list(process.env.CLUSTER_BENCH_LEVELS, "4,8,12,16,24,32,48").map(Number);
/** More than this much above the baseline's p95 is degraded. */
const DEGRADED = 1.2;
const NUMBER = "+14155550180";
const REPLY = "Sure, for what time?";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const round = (ms: number) => (Number.isFinite(ms) ? Math.round(ms) : "-");

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The callers' process: one level at a time. */
function startCallers() {
  const child = fork(path.join(import.meta.dirname, "callers.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the callers' process exited (${code})`)));
  });
  return {
    ready,
    level(order: LevelOrder): Promise<{ outcomes: CallOutcome[]; load: CallersLoad; tokenRetries: number }> {
      return new Promise((resolve, reject) => {
        const onMessage = (message: CallersMessage) => {
          // "steady" and "winding" time the socket-calls bench's CPU reading; this bench reads none.
          if (message.type === "ready" || message.type === "steady" || message.type === "winding") return;
          child.off("message", onMessage);
          if (message.type === "result") resolve(message);
          else reject(new Error(`the callers failed: ${message.message}`));
        };
        child.on("message", onMessage);
        child.send(order);
      });
    },
    close() {
      child.kill("SIGTERM");
    },
  };
}

/** What the call logs stored of a level's turns, once every log is closed. */
interface Stored {
  voiceToVoice: number[];
  endOfTurnWait: number[];
  llmTtft: number[];
  interruptions: number;
  rules: Set<string>;
}

async function storedTurns(base: string, token: string, outcomes: CallOutcome[]): Promise<Stored> {
  const stored: Stored = { voiceToVoice: [], endOfTurnWait: [], llmTtft: [], interruptions: 0, rules: new Set() };
  for (const outcome of outcomes) {
    if (!outcome.callId) continue;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const log = CallLog.parse(await request(base, token, "GET", `/call-logs/${outcome.callId}`));
      if (log.status === "completed" || log.status === "failed") {
        for (const turn of log.turn_metrics) {
          if (turn.voice_to_voice_ms !== null) stored.voiceToVoice.push(turn.voice_to_voice_ms);
          if (turn.end_of_turn_wait_ms != null) stored.endOfTurnWait.push(turn.end_of_turn_wait_ms);
          if (turn.llm_ttft_ms !== null) stored.llmTtft.push(turn.llm_ttft_ms);
          if (turn.end_of_turn_rule) stored.rules.add(turn.end_of_turn_rule);
        }
        stored.interruptions += log.events.filter((e) => e.type === "interruption").length;
        break;
      }
      if (Date.now() > deadline) throw new Error(`call ${outcome.callId} was never closed (${log.status})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return stored;
}

export async function run(): Promise<BenchResult> {
  const llm = await startScriptedLlm(() => ({ text: REPLY }));
  const sid = `AC${randomBytes(16).toString("hex")}`;
  const twilioToken = randomBytes(16).toString("hex");
  const double = await startTwilioDouble({ accounts: [{ sid, token: twilioToken, numbers: [NUMBER] }] });
  const callers = startCallers();
  await callers.ready;
  const rows: Record<string, string | number>[] = [];
  /** Calls per process before degrading, per kind and node count. */
  const capacity = new Map<string, number | null>();
  let nextCaller = 0;
  try {
    for (const nodes of NODE_COUNTS) {
      const database = await freshPostgresDatabase("parley_cluster_bench");
      // CLUSTER_BENCH_DIRECT=1: a single process without HAProxy, to see what the balancer's hop costs.
      const direct = process.env.CLUSTER_BENCH_DIRECT === "1" && nodes === 1;
      let cluster: BenchNodes | null = null;
      try {
        const started = performance.now();
        cluster = direct ? await startDirectNode(database.url) : await startBenchNodes(nodes, database.url);
        console.log(`${nodes} node(s) up in ${Math.round((performance.now() - started) / 1000)} s at ${cluster.url}`);
        const { token, agentId } = await prepareBenchWorkspace(cluster.url, {
          admin: ADMIN,
          assistantName: "Cluster bench",
          number: NUMBER,
          llmUrl: llm.baseUrl,
          twilio: {
            sid,
            token: twilioToken,
            origin: double.origin,
          },
        });
        for (const kind of KINDS) {
          const level = async (calls: number, turns: number) => {
            const pids = cluster?.pids() ?? new Map<string, number>();
            const cpuBefore = [...pids.values()].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
            const load = loadavg()[0] ?? 0;
            const started = performance.now();
            const {
              outcomes,
              load: callersLoad,
              tokenRetries,
            } = await callers.level({
              type: "level",
              kind,
              calls,
              turns,
              base: cluster?.url ?? "",
              userToken: token,
              agentId,
              twilio: { accountSid: sid, authToken: twilioToken, number: NUMBER },
              firstCaller: nextCaller,
            });
            const wall = (performance.now() - started) / 1000;
            const cpu = [...pids.values()].reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
            nextCaller += calls;
            const waits = outcomes.flatMap((o) => o.waits);
            const stored = await storedTurns(cluster?.url ?? "", token, outcomes);
            const failed = outcomes.filter((o) => o.error !== null);
            for (const f of failed.slice(0, 3)) console.log(`  ${kind} call ${f.callId ?? "?"}: ${f.error}`);
            const row = {
              nodes,
              kind,
              calls,
              turns: waits.length,
              unanswered: outcomes.reduce((sum, o) => sum + o.unanswered, 0),
              failed_calls: failed.length,
              caller_p50_ms: round(percentile(waits, 50)),
              caller_p95_ms: round(percentile(waits, 95)),
              stored_v2v_p50_ms: round(percentile(stored.voiceToVoice, 50)),
              stored_v2v_p95_ms: round(percentile(stored.voiceToVoice, 95)),
              end_of_turn_wait_p95_ms: round(percentile(stored.endOfTurnWait, 95)),
              llm_ttft_p95_ms: round(percentile(stored.llmTtft, 95)),
              interruptions: stored.interruptions,
              rules: [...stored.rules].join(","),
              nodes_cpu_cores: +(cpu / wall).toFixed(2),
              // CPU per call is what contention from other work on the machine changes least.
              cpu_pct_per_call: +((100 * cpu) / wall / calls).toFixed(1),
              callers_cpu_cores: +callersLoad.cpuCores.toFixed(2),
              callers_loop_p99_ms: +callersLoad.loopDelayP99Ms.toFixed(1),
              token_404_retries: tokenRetries,
              load_1m: +load.toFixed(2),
            };
            console.log(JSON.stringify(row));
            return { row, p95: percentile(waits, 95), clean: failed.length === 0 && row.unanswered === 0 };
          };
          const baseline = await level(1, BASELINE_TURNS);
          rows.push({ ...baseline.row, verdict: "baseline" });
          const limit = baseline.p95 * DEGRADED;
          // One process climbs the ladder; more processes start where one process stopped.
          const one = capacity.get(`${kind}:1`);
          const ladder =
            nodes === 1 || one === undefined || one === null
              ? LEVELS
              : [1, 1.5, 2, 2.5, 3, 3.5, 4].map((m) => Math.max(2, Math.round(one * m)));
          // More processes that fail their first level (one process's capacity) carry less than one process did.
          let held: number | null = nodes === 1 ? 1 : null;
          for (const calls of ladder) {
            const result = await level(calls, TURNS);
            const ok = result.clean && result.p95 <= limit;
            rows.push({ ...result.row, verdict: ok ? "held" : `degraded (p95 > ${Math.round(limit)} ms)` });
            if (!ok) break;
            held = calls;
          }
          capacity.set(`${kind}:${nodes}`, held);
        }
      } catch (error) {
        if (cluster) console.log(cluster.output().slice(-4000));
        throw error;
      } finally {
        await cluster?.stop();
        await database.drop();
      }
    }
  } finally {
    callers.close();
    await double.close();
    await llm.close();
  }
  for (const kind of KINDS) {
    const one = capacity.get(`${kind}:1`);
    const three = capacity.get(`${kind}:3`);
    rows.push({
      nodes: "summary",
      kind,
      calls_per_process: one ?? "-",
      calls_3_processes: three ?? "-",
      ratio_3_to_1: one && three ? +(three / one).toFixed(2) : three === null && one ? `< 1 (below ${one})` : "-",
      note: "2 cores: three processes share the two cores one process could already use",
    });
  }
  const line = KINDS.map((kind) => {
    const one = capacity.get(`${kind}:1`);
    const three = capacity.get(`${kind}:3`);
    const onThree =
      three === null
        ? `, 3 processes fell below one process's capacity (${one})`
        : three
          ? `, ${three} on 3 processes (×${(three / (one ?? 1)).toFixed(2)})`
          : "";
    return `${kind}: ${one ?? "?"} calls per process before p95 degrades >20 %${onThree}`;
  }).join("; ");
  console.log(`\ncluster capacity — ${line}`);
  return { name: "cluster", rows };
}
