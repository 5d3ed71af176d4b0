import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ClusterFile, ClusterNode } from "./cluster-file.ts";
import { freePort, freeRtpRange } from "./free-ports.ts";
import { nodeEnvironment, renderNodeEnvFile } from "./node-environment.ts";
import { killManaged, type Managed, startManaged, stopManaged } from "./processes.ts";
import { dispatcherStates, haproxyServerRows } from "./proxy-state.ts";
import { renderDispatcherList } from "./render-dispatcher.ts";
import { renderHaproxy } from "./render-haproxy.ts";
import { renderKamailio } from "./render-kamailio.ts";

/**
 * The reference deployment on one machine: N Parley processes on one PostgreSQL database behind
 * HAProxy (HTTP, WebSocket) and Kamailio (SIP), all children of this process. Used by
 * `npm run cluster` and by the cluster tests and bench (docs/operations.md, "Try it on one machine").
 */

export interface LocalClusterOptions {
  /** 1..9; ids "node-1".."node-N". */
  nodes: number;
  /** PostgreSQL; the first node runs the migrations before the others start. */
  databaseUrl: string;
  /** PARLEY_SECRET_KEY shared by all nodes (default: a fixed development key). */
  secretKey?: string;
  /** source: node --import tsx apps/server/src/main.ts (tests); dist: apps/server/dist/main.js. */
  entry?: "source" | "dist";
  /**
   * Extra environment for every node (LOG_LEVEL, PARLEY_ALLOWED_PRIVATE_HOSTS, PARLEY_ADMIN_*…).
   * DRAIN_TIMEOUT is 30s unless set here; TRUST_PROXY is loopback (HAProxy on 127.0.0.1).
   */
  env?: Record<string, string>;
  /** Default true: Kamailio in front of the nodes' SIP ports. */
  sip?: boolean;
  /** Generated configs, logs and the nodes' DATA_DIR (default: a new temp dir). */
  workDir?: string;
}

export interface LocalNode {
  id: string;
  httpPort: number;
  sipPort: number | null;
  rtpPorts: [number, number];
  /** http://127.0.0.1:<httpPort> (direct, bypassing HAProxy). */
  url: string;
  /** null while stopped. */
  pid(): number | null;
  /** Its stdout and stderr so far (every run of it). */
  output(): string;
}

export interface LocalCluster {
  /** http://127.0.0.1:<haproxy port>: every node's PUBLIC_URL. */
  url: string;
  /** Kamailio's UDP/TCP address. */
  sip: { host: "127.0.0.1"; port: number } | null;
  nodes: LocalNode[];
  /** Where the configs, logs and DATA_DIR are. */
  workDir: string;
  node(id: string): LocalNode;
  /** Sends the signal; resolves when the process has exited (for SIGTERM, after its drain). */
  stopNode(id: string, signal?: "SIGTERM" | "SIGKILL"): Promise<{ code: number | null; signal: string | null }>;
  /** Starts a stopped node again with the same ports and env; resolves when HAProxy (and Kamailio, with SIP) see it up. */
  startNode(id: string): Promise<void>;
  /** stopNode(SIGTERM) then startNode. */
  restartNode(id: string): Promise<void>;
  /** HAProxy's view of a node: "UP" | "DOWN" | "MAINT" | "DOWN 1/2" (coming up)… from its stats socket. */
  balancerState(id: string): Promise<string>;
  /** The node's whole row of HAProxy's `show stat` (e.g. stot: sessions sent to it; chkfail; lastchg). */
  balancerStat(id: string): Promise<Record<string, string>>;
  /** Kamailio dispatcher's view of a node: "active" | "inactive" | "probing" (null without SIP). */
  dispatcherState(id: string): Promise<string | null>;
  /** Stops every node (SIGTERM; a second one after 5 s closes at once), then HAProxy and Kamailio. Keeps workDir. */
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");
const DEV_SECRET_KEY = "parley-local-cluster-secret-key-not-for-production";
const RTP_PORTS_PER_NODE = 200;
/** Loading the server through tsx on two cores busy with other tests can take well over a minute. */
const NODE_START_TIMEOUT_MS = 240_000;
const PROXY_STATE_TIMEOUT_MS = 60_000;
/** Nodes stopped by stop(): the first SIGTERM drains, the second (after this) closes at once. */
const STOP_GRACE_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` (errors count as "not yet") until `done` holds; `alive` throwing aborts the wait. */
async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs: number,
  alive: () => void = () => {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    alive();
    try {
      const value = await read();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await sleep(200);
  }
}

async function readyStatus(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
}

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  if (!Number.isInteger(options.nodes) || options.nodes < 1 || options.nodes > 9)
    throw new Error("nodes must be 1 to 9");
  const withSip = options.sip ?? true;
  const workDir = options.workDir ?? mkdtempSync(path.join(tmpdir(), "parley-cluster-"));
  mkdirSync(workDir, { recursive: true });
  const runDir = path.join(workDir, "run");
  mkdirSync(runDir, { recursive: true });
  // One DATA_DIR for all nodes, as a shared volume in a real install: a call's recording is
  // written by the node running the call and read back through any node.
  const dataDir = path.join(workDir, "data");
  mkdirSync(dataDir, { recursive: true });

  const balancerPort = await freePort();
  const sipPort = withSip ? await freePort({ udp: true }) : null;
  const nodes: ClusterNode[] = [];
  for (let i = 1; i <= options.nodes; i++) {
    nodes.push({
      id: `node-${i}`,
      host: "127.0.0.1",
      http_port: await freePort(),
      sip_port: withSip ? await freePort({ udp: true }) : null,
      rtp_ports: await freeRtpRange(RTP_PORTS_PER_NODE),
    });
  }
  const cluster: ClusterFile = {
    public_url: `http://127.0.0.1:${balancerPort}`,
    balancer: { host: "127.0.0.1", http_port: balancerPort },
    sip: sipPort === null ? null : { host: "127.0.0.1", port: sipPort },
    drain_timeout_seconds: 600,
    nodes,
  };
  writeFileSync(path.join(workDir, "nodes.json"), `${JSON.stringify(cluster, null, 2)}\n`);

  const statsSocket = path.join(runDir, "haproxy.sock");
  const ctlSocket = path.join(runDir, "kamailio.ctl");
  const haproxyConfig = path.join(workDir, "haproxy.cfg");
  const kamailioConfig = path.join(workDir, "kamailio.cfg");
  const dispatcherList = path.join(workDir, "dispatcher.list");
  writeFileSync(haproxyConfig, renderHaproxy(cluster, { statsSocket, maxconn: 4000 }));
  if (withSip) {
    writeFileSync(dispatcherList, renderDispatcherList(cluster));
    writeFileSync(
      kamailioConfig,
      renderKamailio(cluster, { dispatcherList, ctlSocket, children: 2, logMessages: true }),
    );
  }

  const nodeEnv = (node: ClusterNode): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      ...nodeEnvironment(cluster, node),
      // The rendered default (10 min) suits production; a local node is stopped with a shorter one
      // unless the caller asks otherwise.
      DRAIN_TIMEOUT: "30s",
      TRUST_PROXY: "loopback",
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      PARLEY_SECRET_KEY: options.secretKey ?? DEV_SECRET_KEY,
      ...options.env,
    };
    if (node.sip_port === null) env.SIP_PORT = "off";
    writeFileSync(path.join(workDir, `${node.id}.env`), renderNodeEnvFile(cluster, node));
    return env;
  };

  const running = new Map<string, Managed>();
  let haproxy: Managed | null = null;
  let kamailio: Managed | null = null;
  const outputs = new Map<string, string>(nodes.map((n) => [n.id, ""]));

  const spawnNode = (node: ClusterNode): Managed => {
    const env = nodeEnv(node);
    const source = (options.entry ?? "source") === "source";
    const managed = startManaged(
      process.execPath,
      source
        ? ["--import", "tsx", "src/main.ts"]
        : ["--enable-source-maps", path.join(repoRoot, "apps/server/dist/main.js")],
      {
        cwd: source ? path.join(repoRoot, "apps/server") : repoRoot,
        env,
        logFile: path.join(workDir, `${node.id}.log`),
        onOutput: (chunk) => outputs.set(node.id, (outputs.get(node.id) ?? "") + chunk),
      },
    );
    running.set(node.id, managed);
    return managed;
  };

  const nodeAlive = (id: string) => () => {
    const managed = running.get(id);
    if (!managed || managed.exited()) throw new Error(`${id} exited while starting:\n${outputs.get(id)?.slice(-4000)}`);
  };
  const proxiesAlive = () => {
    for (const [name, managed] of [
      ["HAProxy", haproxy],
      ["Kamailio", kamailio],
    ] as const) {
      if (managed?.exited()) throw new Error(`${name} exited:\n${managed.output().slice(-4000)}`);
    }
  };

  const startNodeProcess = async (node: ClusterNode) => {
    spawnNode(node);
    await waitFor(
      () => readyStatus(`http://127.0.0.1:${node.http_port}`),
      (status) => status === 200,
      `${node.id} to be ready`,
      NODE_START_TIMEOUT_MS,
      nodeAlive(node.id),
    );
  };

  const balancerStat = async (id: string) => {
    const row = (await haproxyServerRows(statsSocket)).get(id);
    if (row === undefined) throw new Error(`HAProxy lists no server ${id}`);
    return row;
  };
  const balancerState = async (id: string) => (await balancerStat(id)).status ?? "";
  const dispatcherState = async (id: string) => {
    if (!withSip) return null;
    const state = (await dispatcherStates(ctlSocket)).get(id);
    if (state === undefined) throw new Error(`Kamailio's dispatcher lists no node ${id}`);
    return state;
  };
  const seenUp = async (id: string) => {
    await waitFor(
      () => balancerState(id),
      (s) => s === "UP",
      `HAProxy to see ${id} UP`,
      PROXY_STATE_TIMEOUT_MS,
      proxiesAlive,
    );
    if (withSip)
      await waitFor(
        () => dispatcherState(id),
        (s) => s === "active",
        `Kamailio to see ${id} active`,
        PROXY_STATE_TIMEOUT_MS,
        proxiesAlive,
      );
  };

  const stopAll = async () => {
    await Promise.all([...running.values()].map((managed) => stopManaged(managed, "SIGTERM", STOP_GRACE_MS)));
    await Promise.all([haproxy, kamailio].map((managed) => managed && stopManaged(managed, "SIGTERM", STOP_GRACE_MS)));
  };

  try {
    // The first node alone: it runs the migrations (and creates the administrator) before the others.
    const [first, ...others] = nodes;
    if (first) await startNodeProcess(first);
    await Promise.all(others.map(startNodeProcess));
    haproxy = startManaged("haproxy", ["-db", "-f", haproxyConfig], { logFile: path.join(workDir, "haproxy.log") });
    if (withSip)
      kamailio = startManaged(
        "kamailio",
        // Foreground (-DD: no daemon, workers still forked), logs on stderr, its own runtime dir,
        // small memory pools (a few local calls).
        ["-DD", "-E", "-f", kamailioConfig, "-Y", runDir, "-w", runDir, "-m", "32", "-M", "4"],
        { logFile: path.join(workDir, "kamailio.log") },
      );
    for (const node of nodes) await seenUp(node.id);
  } catch (error) {
    await stopAll();
    throw error;
  }

  const localNodes: LocalNode[] = nodes.map((node) => ({
    id: node.id,
    httpPort: node.http_port,
    sipPort: node.sip_port,
    rtpPorts: node.rtp_ports,
    url: `http://127.0.0.1:${node.http_port}`,
    pid: () => {
      const managed = running.get(node.id);
      return managed && !managed.exited() ? (managed.child.pid ?? null) : null;
    },
    output: () => outputs.get(node.id) ?? "",
  }));
  const clusterNode = (id: string) => {
    const node = nodes.find((n) => n.id === id);
    if (!node) throw new Error(`no node ${id} (nodes: ${nodes.map((n) => n.id).join(", ")})`);
    return node;
  };

  const stopNode: LocalCluster["stopNode"] = async (id, signal = "SIGTERM") => {
    clusterNode(id);
    const managed = running.get(id);
    if (!managed || managed.exited()) return managed ? managed.exit : { code: null, signal: null };
    if (signal === "SIGKILL") return killManaged(managed);
    managed.child.kill("SIGTERM");
    return managed.exit;
  };
  const startNode = async (id: string) => {
    const node = clusterNode(id);
    const managed = running.get(id);
    if (managed && !managed.exited()) throw new Error(`${id} is running (pid ${managed.child.pid})`);
    await startNodeProcess(node);
    await seenUp(id);
  };

  return {
    url: cluster.public_url,
    sip: sipPort === null ? null : { host: "127.0.0.1", port: sipPort },
    nodes: localNodes,
    workDir,
    node: (id) => {
      const found = localNodes.find((n) => n.id === id);
      if (!found) throw new Error(`no node ${id}`);
      return found;
    },
    stopNode,
    startNode,
    restartNode: async (id) => {
      await stopNode(id, "SIGTERM");
      await startNode(id);
    },
    balancerState,
    balancerStat,
    dispatcherState,
    stop: stopAll,
  };
}
