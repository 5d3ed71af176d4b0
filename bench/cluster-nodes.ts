// The server processes of the cluster bench: N nodes on one PostgreSQL database, each with the
// instant doubles loaded (cluster-node-preload.ts), started by the local cluster launcher
// (deploy/src/local-cluster.ts: HAProxy in front, node ids in the socket URLs).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLocalCluster } from "../deploy/src/local-cluster.ts";
import { serverUp } from "./server-child.ts";

export const ADMIN = { email: "cluster-bench@example.com", password: "Cluster-bench-password-1" };

/** What the bench needs of a running set of nodes. */
export interface BenchNodes {
  /** Where callers and the API go: HAProxy's port. */
  url: string;
  /** Process id per node id, for CPU readings. */
  pids(): Map<string, number>;
  /** Everything the nodes printed (warnings and errors: LOG_LEVEL=warn). */
  output(): string;
  stop(): Promise<void>;
}

const repo = path.resolve(import.meta.dirname, "..");
const preload = path.join(import.meta.dirname, "cluster-node-preload.ts");

/** Every node's environment beside what the launcher sets. */
const nodeEnv = () => ({
  NODE_OPTIONS: `--import tsx --import ${preload}`,
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  PARLEY_ADMIN_EMAIL: ADMIN.email,
  PARLEY_ADMIN_PASSWORD: ADMIN.password,
  // The scripted model and the Twilio double listen on 127.0.0.1.
  PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  DRAIN_TIMEOUT: "5s",
});

/**
 * `count` nodes behind HAProxy on `databaseUrl`. The entry is "source": the doubles are put in
 * place by a resolve hook, which cannot reach into dist/main.js, where the vendor folders are bundled.
 */
export async function startBenchNodes(count: number, databaseUrl: string): Promise<BenchNodes> {
  const workDir = mkdtempSync(path.join(tmpdir(), "cluster-bench-"));
  const cluster = await startLocalCluster({
    nodes: count,
    databaseUrl,
    entry: "source",
    sip: false,
    workDir,
    env: nodeEnv(),
  });
  return {
    url: cluster.url,
    pids: () => {
      const pids = new Map<string, number>();
      for (const node of cluster.nodes) {
        const pid = node.pid();
        if (pid !== null) pids.set(node.id, pid);
      }
      return pids;
    },
    output: () => cluster.nodes.map((n) => `--- ${n.id}\n${n.output()}`).join("\n"),
    stop: () => cluster.stop(),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * One node without the launcher (no HAProxy): the server from source in its own process, as
 * apps/server/test/support/server-process.ts starts it. For trying the bench before the launcher
 * exists, and with CLUSTER_BENCH_DIRECT=1 to read one process without the balancer's hop.
 */
export async function startDirectNode(databaseUrl: string): Promise<BenchNodes> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(repo, "apps/server"),
    env: {
      ...process.env,
      ...nodeEnv(),
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "cluster-bench-")),
      DATABASE_URL: databaseUrl,
      PARLEY_SECRET_KEY: "cluster-bench-secret-key-cluster-bench-secret-key",
      SIP_PORT: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output } = await serverUp(child, `${base}/api/v1/health/ready`);
  return {
    url: base,
    pids: () => new Map(child.pid === undefined ? [] : [["direct", child.pid]]),
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
