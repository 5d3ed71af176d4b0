#!/usr/bin/env node
// Renders the reference deployment's configs from a nodes file, for a real install:
//   node --import tsx deploy/render.ts deploy/nodes.example.json <outdir>
// writes haproxy.cfg, kamailio.cfg, dispatcher.list, parley@.service, one <id>.env per node and
// the HAProxy/Kamailio systemd drop-ins. docs/operations.md says where each file goes.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readClusterFile } from "./src/cluster-file.ts";
import { renderNodeEnvFile } from "./src/node-environment.ts";
import { renderDispatcherList } from "./src/render-dispatcher.ts";
import { renderHaproxy } from "./src/render-haproxy.ts";
import { renderKamailio } from "./src/render-kamailio.ts";
import { renderHaproxyDropIn, renderKamailioDropIn, renderParleyUnit } from "./src/render-systemd.ts";

const [nodesFile, outDir] = process.argv.slice(2);
if (!nodesFile || !outDir) {
  console.error("usage: node --import tsx deploy/render.ts <nodes.json> <outdir>");
  process.exit(2);
}

let cluster: ReturnType<typeof readClusterFile>;
try {
  cluster = readClusterFile(nodesFile);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

/** Debian's packaged HAProxy and Kamailio paths (where the files below are copied to). */
const files: Record<string, string> = {
  "haproxy.cfg": renderHaproxy(cluster, {
    statsSocket: "/run/haproxy/admin.sock",
    globalLines: ["log /dev/log local0", "user haproxy", "group haproxy"],
  }),
  "parley@.service": renderParleyUnit(cluster),
  "haproxy.service.d-parley.conf": renderHaproxyDropIn(),
};
if (cluster.sip) {
  files["kamailio.cfg"] = renderKamailio(cluster, {
    dispatcherList: "/etc/kamailio/dispatcher.list",
    ctlSocket: "/run/kamailio/kamailio_ctl",
  });
  files["dispatcher.list"] = renderDispatcherList(cluster);
  files["kamailio.service.d-parley.conf"] = renderKamailioDropIn();
}
for (const node of cluster.nodes) files[`${node.id}.env`] = renderNodeEnvFile(cluster, node);

mkdirSync(outDir, { recursive: true });
for (const [name, content] of Object.entries(files)) {
  writeFileSync(path.join(outDir, name), content);
  console.log(`wrote ${path.join(outDir, name)}`);
}
