#!/usr/bin/env node
// `npm run cluster -- --nodes 3`: the reference deployment on this machine, in the foreground —
// N Parley nodes on one PostgreSQL database behind HAProxy (HTTP, WebSocket) and Kamailio (SIP).
// Ctrl-C or SIGTERM stops everything. `kill -TERM <node pid>` drains one node, which is then
// started again (as systemd's Restart= would): do it node by node for a rolling restart.
//   --nodes N        1..9 (default 3)
//   --no-sip         no Kamailio, nodes without SIP
//   --work-dir DIR   configs, logs and the shared DATA_DIR (default data/cluster)
// DATABASE_URL: the database to use; unset, parley_cluster on 127.0.0.1:5432 (created if missing).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startLocalCluster } from "./src/local-cluster.ts";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "3" },
    "no-sip": { type: "boolean", default: false },
    "work-dir": { type: "string", default: path.join(root, "data/cluster") },
  },
});

/** Newest modification time of the sources under `dir` (skipping node_modules and dist), as scripts/start.mjs judges a stale build. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== "node_modules" && e.name !== "dist")
    .reduce((max, e) => {
      const full = path.join(dir, e.name);
      return Math.max(max, e.isDirectory() ? newest(full) : statSync(full).mtimeMs);
    }, 0);
const stale = (output: string, sources: string[]) =>
  !existsSync(path.join(root, output)) ||
  sources.some((dir) => newest(path.join(root, dir)) > statSync(path.join(root, output)).mtimeMs);

if (
  stale("apps/web/dist/index.html", ["apps/web", "packages"]) ||
  stale("apps/server/dist/main.js", ["apps/server/src", "packages"])
) {
  console.log("Building Parley (npm run build)…");
  if (spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);
}

async function databaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres" });
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = 'parley_cluster'");
    if (found.rowCount === 0) {
      await admin.query("create database parley_cluster");
      console.log("Created the database parley_cluster on 127.0.0.1:5432.");
    } else console.log("Using the existing database parley_cluster on 127.0.0.1:5432.");
  } finally {
    await admin.end();
  }
  return "postgres://postgres@127.0.0.1:5432/parley_cluster";
}

const nodes = Number(values.nodes);
const workDir = path.resolve(values["work-dir"]);
console.log(
  `Starting ${nodes} node(s) behind HAProxy${values["no-sip"] ? "" : " and Kamailio"} (work dir ${workDir})…`,
);
const cluster = await startLocalCluster({
  nodes,
  databaseUrl: await databaseUrl(),
  entry: "dist",
  sip: !values["no-sip"],
  workDir,
  // A rolling restart by hand should show a drain that waits for calls, as in production.
  env: { DRAIN_TIMEOUT: process.env.DRAIN_TIMEOUT ?? "10m" },
});

function adminSignIn(): string {
  if (process.env.PARLEY_ADMIN_EMAIL) return `${process.env.PARLEY_ADMIN_EMAIL} (password: PARLEY_ADMIN_PASSWORD)`;
  const file = path.join(workDir, "data/initial-admin-password.txt");
  if (!existsSync(file)) return "the administrator you set up earlier (no generated password is kept any more)";
  const [email, , password] = readFileSync(file, "utf8").split("\n");
  return `${email} / ${password} (generated; kept in ${file})`;
}

console.log(`
Parley cluster is up.
  URL:       ${cluster.url}
  SIP:       ${cluster.sip ? `sip:${cluster.sip.host}:${cluster.sip.port} (UDP and TCP, Kamailio)` : "off"}
  Sign in:   ${adminSignIn()}
  Nodes:`);
for (const node of cluster.nodes)
  console.log(
    `    ${node.id}  pid ${node.pid()}  ${node.url}  SIP ${node.sipPort ?? "off"}  RTP ${node.rtpPorts.join("-")}  log ${path.join(workDir, `${node.id}.log`)}`,
  );
console.log(`
  Configs and logs: ${workDir} (haproxy.cfg, kamailio.cfg, dispatcher.list, *.log)
  Rolling restart: kill -TERM <node pid>, one node at a time; it drains, exits and is started again.
  Ctrl-C stops everything.`);

let stopping = false;
const restarting = new Set<string>();
// A node that exited (a drain after kill -TERM, or a crash) is started again, as systemd would.
const watch = setInterval(() => {
  for (const node of cluster.nodes) {
    if (stopping || node.pid() !== null || restarting.has(node.id)) continue;
    restarting.add(node.id);
    console.log(`${node.id} exited; starting it again…`);
    cluster
      .startNode(node.id)
      .then(
        () =>
          console.log(
            `${node.id} is back (pid ${node.pid()}), ${cluster.sip ? "HAProxy and Kamailio see" : "HAProxy sees"} it up.`,
          ),
        (error: unknown) => console.error(`${node.id} did not come back: ${(error as Error).message}`),
      )
      .finally(() => restarting.delete(node.id));
  }
}, 1000);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    console.log("\nStopping the cluster (nodes drain; a call still running after 5 s is ended)…");
    void cluster.stop().then(() => process.exit(0));
  });
}
