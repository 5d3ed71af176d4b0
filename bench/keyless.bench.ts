// Keyless default benchmark (issue 35): N simultaneous browser calls to an assistant on the providers
// a fresh install has without keys — the offline recogniser (pocketsphinx) and voice (eSpeak NG) —
// with a local scripted model, against a server in its own process as `npm start` runs it. Each
// caller speaks three lines in real time over the realtime socket (20 ms frames, quiet between
// lines, as a microphone sends) and listens: a turn is answered when the assistant's voice starts
// within ANSWER_MS of the caller's last voiced frame. The callers run in this process, the server
// and its recognisers in theirs. Prints, per level, answered turns, end of speech → first audio
// (p50/p95) and the server's CPU.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
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

/** CPU seconds of the server and its children that have ended plus its live recognisers. */
function serverCpu(pid: number): number {
  let total = cpuSeconds(pid);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  for (const child of children) {
    try {
      total += cpuSeconds(Number(child));
    } catch {
      // It ended between the two reads.
    }
  }
  return total;
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
};

async function oneCall(server: ServerProcess, token: string, agentId: string, index: number): Promise<Turn[]> {
  const api = client(server.base, token);
  const started = await api("POST", `/agents/${agentId}/call`);
  if (started.status !== 201) throw new Error(`start call failed: ${started.status} ${JSON.stringify(started.body)}`);
  const room = z.object({ room: z.object({ name: z.string() }) }).parse(started.body).room.name;
  const caller: ChaosCaller = browserCaller(await joinRoom(server, token, room, `caller-${index}`));
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
  return turns;
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
      const turns = calls.flat();
      const latencies = turns.flatMap((t) => (t.latencyMs === null ? [] : [t.latencyMs]));
      rows.push({
        calls: n,
        turns: turns.length,
        answered: turns.filter((t) => t.answered).length,
        unanswered_pct: Math.round((100 * turns.filter((t) => !t.answered).length) / turns.length),
        p50_ms: quantile(latencies, 0.5),
        p95_ms: quantile(latencies, 0.95),
        server_cores: Number(((serverCpu(pid) - cpuBefore) / seconds).toFixed(2)),
      });
    }
  } finally {
    await stopServerProcess(server);
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { name: "keyless", rows };
}
