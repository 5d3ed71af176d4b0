// Keyless default benchmark (issue 35): N simultaneous browser calls to an assistant on the providers
// a fresh install has without keys — the offline recogniser (pocketsphinx) and voice (eSpeak NG) —
// with a local scripted model, against a server in its own process as `npm start` runs it. Each
// caller speaks three lines in real time over the realtime socket (20 ms frames, quiet between
// lines, as a microphone sends) and listens: a turn is answered when the assistant's voice starts
// within ANSWER_MS of the caller's last voiced frame. The callers run in this process, the server
// and its recognisers in theirs. Prints, per level, answered turns, end of speech → first audio
// (p50/p95), the server's CPU, and what tells a slow recogniser from a starved machine: the
// recognisers' CPU per decoded turn, the recogniser's share of each answered turn (stt, from the
// call logs) and the machine's load.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CallLog } from "@parley/contract";
import { z } from "zod";
import { keylessAssistant } from "../apps/server/test/support/assistant-fields.ts";
import { browserCaller, type ChaosCaller } from "../apps/server/test/support/chaos-caller.ts";
import { startScriptedLlm } from "../apps/server/test/support/scripted-llm.ts";
import {
  client,
  createAssistantOn,
  joinRoom,
  type ServerProcess,
  signInAdmin,
  startServerProcess,
  stopServerProcess,
} from "../apps/server/test/support/server-process.ts";
import { until } from "../apps/server/test/support/until.ts";
import type { BenchResult } from "./run.ts";

const LEVELS = process.env.KEYLESS_BENCH_LEVELS ? process.env.KEYLESS_BENCH_LEVELS.split(",").map(Number) : [10, 20];
const LINES = ["What are your opening hours", "Can I book a table for two", "Thank you very much"];
/** A turn the caller waited this long for is unanswered (a person would have asked again). */
const ANSWER_MS = 8_000;
/** The assistant's reply has ended after this much quiet. */
const QUIET_MS = 1_200;
/** Calls start this far apart: people do not all dial in the same millisecond. */
const STAGGER_MS = 150;
const REPLY = "We are open from nine to five.";

interface Turn {
  answered: boolean;
  latencyMs: number | null;
}

/** CPU seconds (user + system) the process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of the server (with its children that have ended) and of its live recognisers. */
function serverCpu(pid: number): { total: number; recognisers: number } {
  const server = cpuSeconds(pid);
  let recognisers = 0;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  for (const child of children) {
    try {
      const used = cpuSeconds(Number(child));
      if (readFileSync(`/proc/${child}/comm`, "utf8").startsWith("pocketsphinx")) recognisers += used;
    } catch {
      // It ended between the reads.
    }
  }
  return { total: server + recognisers, recognisers };
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
};

interface Call {
  id: string;
  turns: Turn[];
}

async function oneCall(server: ServerProcess, token: string, agentId: string, index: number): Promise<Call> {
  const api = client(server.base, token);
  const started = await api("POST", `/agents/${agentId}/call`);
  if (started.status !== 201) throw new Error(`start call failed: ${started.status} ${JSON.stringify(started.body)}`);
  const { room, call_id: id } = z
    .object({ room: z.object({ name: z.string() }), call_id: z.string() })
    .parse(started.body);
  const caller: ChaosCaller = browserCaller(await joinRoom(server, token, room.name, `caller-${index}`));
  const turns: Turn[] = [];
  try {
    // The greeting, then each line once the assistant has finished speaking.
    const greeting = await caller.ear.wait(() => caller.ear.firstSoundAfter(0), "the greeting", 60_000);
    await caller.ear.wait(() => caller.ear.quietAfter(greeting, QUIET_MS), "the greeting's end", 60_000);
    for (const line of LINES) {
      const end = await caller.say(line);
      const heard = await caller.ear
        .wait(() => caller.ear.firstSoundAfter(end), "the reply", ANSWER_MS)
        .catch(() => null);
      turns.push({ answered: heard !== null, latencyMs: heard === null ? null : heard - end });
      await caller.ear.wait(() => caller.ear.quietAfter(heard ?? end, QUIET_MS), "the reply's end", 60_000);
    }
  } finally {
    await caller.hangUp();
  }
  return { id, turns };
}

/** The recogniser's part of each answered turn (end of speech → words), from the closed call logs. */
async function sttMs(server: ServerProcess, token: string, callIds: string[]): Promise<number[]> {
  const api = client(server.base, token);
  const logs = await Promise.all(
    callIds.map((id) =>
      until(
        async () => CallLog.parse((await api("GET", `/call-logs/${id}`)).body),
        (log) => log.status === "completed" || log.status === "failed",
        "the call log to close",
      ),
    ),
  );
  return logs.flatMap((log) => log.turn_metrics.flatMap((m) => (m.stt_ms === null ? [] : [m.stt_ms])));
}

export async function run(): Promise<BenchResult> {
  const llm = await startScriptedLlm(() => ({ text: REPLY }));
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-keyless-bench-"));
  const server = await startServerProcess({ dataDir });
  const rows: Record<string, string | number>[] = [];
  try {
    const token = await signInAdmin(server.base);
    const api = client(server.base, token);
    const workspaces = z
      .array(z.object({ id: z.string(), is_current: z.boolean() }))
      .parse((await api("GET", "/workspaces")).body);
    const workspace = workspaces.find((w) => w.is_current) ?? workspaces[0];
    if (!workspace) throw new Error("no workspace");
    await api("PATCH", `/workspaces/${workspace.id}`, { concurrency_limit: Math.max(...LEVELS) + 5 });
    const agentId = await createAssistantOn(api, {
      name: "Keyless desk",
      ...keylessAssistant(llm.baseUrl),
      first_message: "Hello, how can I help?",
      audio_recording: false,
    });
    const pid = server.child.pid;
    if (pid === undefined) throw new Error("no server pid");
    for (const n of LEVELS) {
      const cpuBefore = serverCpu(pid);
      const startedAt = performance.now();
      const calls = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i * STAGGER_MS));
          return oneCall(server, token, agentId, i);
        }),
      );
      const seconds = (performance.now() - startedAt) / 1000;
      const turns = calls.flatMap((c) => c.turns);
      const cpuAfter = serverCpu(pid);
      const load = loadavg()[0] ?? Number.NaN;
      const stt = await sttMs(
        server,
        token,
        calls.map((c) => c.id),
      );
      const latencies = turns.flatMap((t) => (t.latencyMs === null ? [] : [t.latencyMs]));
      rows.push({
        calls: n,
        turns: turns.length,
        answered: turns.filter((t) => t.answered).length,
        unanswered_pct: Math.round((100 * turns.filter((t) => !t.answered).length) / turns.length),
        p50_ms: quantile(latencies, 0.5),
        p95_ms: quantile(latencies, 0.95),
        stt_p50_ms: quantile(stt, 0.5),
        stt_p95_ms: quantile(stt, 0.95),
        server_cores: Number(((cpuAfter.total - cpuBefore.total) / seconds).toFixed(2)),
        // Recognisers started during the level count in full (their model load included).
        recogniser_cpu_ms_per_turn: Math.round((1000 * (cpuAfter.recognisers - cpuBefore.recognisers)) / turns.length),
        load_1m: Number(load.toFixed(1)),
      });
    }
  } finally {
    await stopServerProcess(server);
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { name: "keyless", rows };
}
