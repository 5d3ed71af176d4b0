import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../../deploy/src/local-cluster.ts";
import { browserCall, type CallerResult, type Hold, type SipTarget, sipCall, twilioCall } from "./cluster-callers.ts";
import {
  type CallDoubles,
  type CallWorkspace,
  NODE_ENV,
  prepareCallWorkspace,
  SIP_NUMBER,
  spread,
  startCallDoubles,
  TWILIO_NUMBER,
} from "./cluster-world.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "./postgres-database.ts";

/**
 * For one cluster test file: a fresh PostgreSQL database, the call doubles, three nodes behind
 * HAProxy and Kamailio (deploy/src/local-cluster.ts, from source), and the workspace set up through
 * the cluster's URL; all stopped after the file. Read the fields inside the file's hooks and tests.
 */
export interface ClusterWorld {
  database: PostgresDatabase;
  doubles: CallDoubles;
  cluster: LocalCluster;
  workspace: CallWorkspace;
  /** One caller of each kind, through the cluster (HAProxy for web and phone, Kamailio for SIP). */
  web(hold: Hold & { say?: string }): Promise<CallerResult>;
  phone(from: string, hold: Hold): Promise<CallerResult>;
  sip(from: string, hold: Hold): Promise<CallerResult>;
}

export function useCluster(prefix: string, env: Record<string, string> = {}): ClusterWorld {
  const world = {} as ClusterWorld;
  beforeAll(async () => {
    world.database = await freshPostgresDatabase(prefix);
    world.doubles = await startCallDoubles();
    const started = Date.now();
    world.cluster = await startLocalCluster({
      nodes: 3,
      databaseUrl: world.database.url,
      entry: "source",
      env: { ...NODE_ENV, ...env },
    });
    console.log(`cluster of 3 up in ${Date.now() - started} ms at ${world.cluster.url}`);
    world.workspace = await prepareCallWorkspace(world.cluster.url, world.doubles);
  }, 600_000);
  afterAll(async () => {
    await world.cluster?.stop().catch((error: unknown) => console.error("cluster stop failed", error));
    await world.doubles?.close();
    await world.database?.drop();
  }, 300_000);
  world.web = (hold) => browserCall(world.cluster.url, world.workspace.api, world.workspace.agentId, hold);
  world.phone = (from, hold) =>
    twilioCall(
      world.cluster.url,
      { accountSid: world.doubles.twilioSid, authToken: world.doubles.twilioToken, to: TWILIO_NUMBER },
      from,
      hold,
    );
  world.sip = (from, hold) => sipCall(sipTargetOf(world.cluster), from, hold);
  return world;
}

/** Kamailio's address, the trunk number, and which node an RTP port belongs to. */
export function sipTargetOf(cluster: LocalCluster): SipTarget {
  if (!cluster.sip) throw new Error("the cluster runs without SIP");
  return {
    host: cluster.sip.host,
    port: cluster.sip.port,
    number: SIP_NUMBER,
    nodeOfRtpPort: (port) => cluster.nodes.find((n) => port >= n.rtpPorts[0] && port <= n.rtpPorts[1])?.id ?? null,
  };
}

/** Distinct caller numbers: +1415556NNNN for phone, +1415557NNNN for SIP. */
export const phoneFrom = (i: number) => `+1415556${String(1000 + i)}`;
export const sipFrom = (i: number) => `+1415557${String(1000 + i)}`;

/** Calls per node and channel, for the log and the spread assertions. */
export function spreadOf(results: CallerResult[]): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const r of results) {
    const node = r.node ?? "unknown";
    table[node] ??= {};
    const row = table[node];
    row[r.channel] = (row[r.channel] ?? 0) + 1;
  }
  return table;
}

/** A caller that could not even start its call (the start request or webhook refused): recorded, not thrown. */
export function failedStart(channel: CallerResult["channel"], key: string, error: unknown): CallerResult {
  return {
    channel,
    key,
    callId: null,
    node: null,
    heardAt: null,
    hungUpAt: null,
    longestGapMs: 0,
    gapStarvedMs: 0,
    gapAt: 0,
    cut: `could not start: ${error instanceof Error ? error.message : String(error)}`,
    ending: "not started",
  };
}

export interface CallingLoad {
  /** Calls finished so far, and those started (finished or not). */
  finished: CallerResult[];
  started(): number;
  /** Starts no more calls and resolves with every call's result once all have ended. */
  stop(): Promise<CallerResult[]>;
}

/**
 * Keeps `lines` calls of each kind running: when one caller hangs up, another of its kind calls.
 * Each stays on `holdMs()` after hearing the assistant. Numbers are fresh for every call (the log of
 * each is found by its From).
 */
export function keepCalling(
  world: ClusterWorld,
  lines: { web: number; phone: number; sip: number },
  holdMs: () => number,
): CallingLoad {
  let running = true;
  let count = 0;
  let phones = 0;
  let sips = 0;
  const finished: CallerResult[] = [];
  const place = (channel: CallerResult["channel"]): Promise<CallerResult> => {
    count += 1;
    const hold = { holdMs: holdMs(), answerTimeoutMs: 120_000 };
    if (channel === "web") return world.web({ ...hold, say: "Tell me about your opening hours" });
    const key = channel === "phone" ? phoneFrom(phones++) : sipFrom(sips++);
    const call = channel === "phone" ? world.phone(key, hold) : world.sip(key, hold);
    return call.catch((error: unknown) => failedStart(channel, key, error));
  };
  const line = async (channel: CallerResult["channel"], delayMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    while (running) {
      const result = await place(channel).catch((error: unknown) => failedStart(channel, "web", error));
      finished.push(result);
    }
  };
  const lineRuns: Promise<void>[] = [];
  let delay = 0;
  for (const channel of ["web", "phone", "sip"] as const) {
    for (let i = 0; i < lines[channel]; i += 1) {
      lineRuns.push(line(channel, delay));
      delay += 300;
    }
  }
  return {
    finished,
    started: () => count,
    async stop() {
      running = false;
      await Promise.all(lineRuns);
      return finished;
    },
  };
}

export interface ReadinessWatch {
  /** Per node: answers read, how many were not 200, and the latency spread. */
  stop(): Promise<string>;
}

/**
 * Asks every node's /api/v1/health/ready directly (as HAProxy's check does) every 500 ms and keeps
 * the latency and the non-200 answers: how the nodes look to the balancer under the test's load.
 */
export function watchReadiness(cluster: LocalCluster): ReadinessWatch {
  let running = true;
  const seen = new Map<string, { ms: number[]; failed: number }>();
  const watchers = cluster.nodes.map(async (node) => {
    const entry = { ms: [] as number[], failed: 0 };
    seen.set(node.id, entry);
    while (running) {
      const started = performance.now();
      const status = await fetch(`${node.url}/api/v1/health/ready`, { signal: AbortSignal.timeout(10_000) }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status;
        },
        () => 0,
      );
      entry.ms.push(performance.now() - started);
      if (status !== 200) entry.failed += 1;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(watchers);
      return [...seen]
        .map(([id, e]) => `${id}: ${e.ms.length} checks, ${e.failed} not 200, ${spread(e.ms)}`)
        .join("; ");
    },
  };
}

/**
 * How long each node's main thread (its event loop, which paces the calls' audio) waited for a CPU,
 * read from /proc/<pid>/schedstat (time spent runnable but not running) every 50 ms. On a machine
 * shared with other work, a gap in a caller's audio during which its node was waiting for the CPU
 * measures the machine, not Parley.
 */
export interface CpuWaits {
  /** Milliseconds the node's main thread waited for a CPU between `from` and `to` (performance.now()). */
  waitedMs(node: string, from: number, to: number): number;
  stop(): void;
}

export function watchNodeCpuWaits(cluster: LocalCluster): CpuWaits {
  const samples = new Map<string, { at: number; pid: number; waitMs: number }[]>();
  const read = () => {
    for (const node of cluster.nodes) {
      const pid = node.pid();
      if (pid === null) continue;
      try {
        const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(/\s+/);
        const list = samples.get(node.id) ?? [];
        samples.set(node.id, list);
        list.push({ at: performance.now(), pid, waitMs: Number(fields[1] ?? 0) / 1e6 });
      } catch {
        // The process has just exited: no sample.
      }
    }
  };
  const timer = setInterval(read, 50);
  timer.unref();
  read();
  return {
    waitedMs(node, from, to) {
      const list = samples.get(node) ?? [];
      let total = 0;
      for (let i = 1; i < list.length; i += 1) {
        const a = list[i - 1];
        const b = list[i];
        if (!a || !b || a.pid !== b.pid || b.at <= from || a.at >= to) continue;
        const share = (Math.min(b.at, to) - Math.max(a.at, from)) / (b.at - a.at);
        total += (b.waitMs - a.waitMs) * share;
      }
      return total;
    },
    stop: () => clearInterval(timer),
  };
}
