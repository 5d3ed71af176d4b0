import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseClusterFile, readClusterFile } from "../../../../deploy/src/cluster-file.ts";
import { renderDispatcherList } from "../../../../deploy/src/render-dispatcher.ts";
import { renderHaproxy } from "../../../../deploy/src/render-haproxy.ts";
import { renderKamailio } from "../../../../deploy/src/render-kamailio.ts";

/**
 * The reference deployment's configs (deploy/), rendered from the example nodes file, are accepted
 * by the real engines' own checkers (HAProxy 2.6 and Kamailio 5.6 from Debian, as CI installs them).
 */

const run = promisify(execFile);
const deployDir = path.resolve(import.meta.dirname, "../../../../deploy");
const example = path.join(deployDir, "nodes.example.json");

/** The example's layout, moved to 127.0.0.1 so Kamailio's check can resolve its listen address here. */
function localExample() {
  const cluster = readClusterFile(example);
  return {
    ...cluster,
    balancer: { host: "127.0.0.1", http_port: 18080 },
    sip: { host: "127.0.0.1", port: 15060 },
  };
}

describe("deploy configs", () => {
  it("renders an HAProxy config that haproxy -c accepts, routing each node's socket URLs to it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-deploy-"));
    const config = path.join(dir, "haproxy.cfg");
    writeFileSync(config, renderHaproxy(localExample(), { statsSocket: path.join(dir, "haproxy.sock") }));
    const { stdout, stderr } = await run("haproxy", ["-c", "-f", config]);
    expect(`${stdout}${stderr}`).toContain("Configuration file is valid");
    const text = readFileSync(config, "utf8");
    expect(text).toContain("use-server node-2 if { path -m reg ^/api/v1/(realtime|telephony/[a-z-]+/stream)/node-2$ }");
    expect(text).toContain("option httpchk GET /api/v1/health/ready");
    expect(text).not.toContain("shutdown-sessions");
  });

  it("renders a Kamailio config and dispatcher list that kamailio -c accepts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-deploy-"));
    const cluster = localExample();
    const dispatcherList = path.join(dir, "dispatcher.list");
    writeFileSync(dispatcherList, renderDispatcherList(cluster));
    const config = path.join(dir, "kamailio.cfg");
    writeFileSync(config, renderKamailio(cluster, { dispatcherList, ctlSocket: path.join(dir, "ctl.sock") }));
    const { stdout, stderr } = await run("kamailio", ["-c", "-f", config]);
    expect(`${stdout}${stderr}`).toContain("config file ok");
    expect(readFileSync(dispatcherList, "utf8")).toContain("1 sip:10.0.0.12:5060 8 0 node=node-2");
  });

  it("renders every file of a real install from the nodes file (deploy/render.ts)", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "parley-render-"));
    await run(process.execPath, ["--import", "tsx", path.join(deployDir, "render.ts"), example, out], {
      cwd: deployDir,
    });
    const unit = readFileSync(path.join(out, "parley@.service"), "utf8");
    expect(unit).toContain("KillSignal=SIGTERM");
    expect(unit).toContain("TimeoutStopSec=630");
    expect(unit).toContain("EnvironmentFile=/etc/parley/%i.env");
    const env = readFileSync(path.join(out, "node-3.env"), "utf8");
    expect(env).toContain("NODE_ID=node-3");
    expect(env).toContain("SIP_HOST=10.0.0.13");
    expect(env).toContain("PUBLIC_URL=https://parley.example.com");
    for (const file of ["haproxy.cfg", "kamailio.cfg", "dispatcher.list", "node-1.env", "node-2.env"])
      expect(readFileSync(path.join(out, file), "utf8").length).toBeGreaterThan(0);
  });

  it("refuses a nodes file with a clear message per problem", () => {
    const bad = {
      public_url: "https://parley.example.com",
      balancer: { host: "10.0.0.10", http_port: 80 },
      sip: { host: "10.0.0.10", port: 5060 },
      nodes: [
        { id: "node-1", host: "10.0.0.11", http_port: 3000, sip_port: 5060, rtp_ports: [10000, 10999] },
        { id: "node-1", host: "10.0.0.11", http_port: 3000, sip_port: null, rtp_ports: [10500, 10600] },
      ],
    };
    expect(() => parseClusterFile(JSON.stringify(bad), "nodes.json")).toThrowError(
      /nodes\.1\.id: "node-1" is listed twice[\s\S]*nodes\.1\.sip_port: is needed[\s\S]*nodes\.1\.http_port: is already used by node-1[\s\S]*nodes\.1\.rtp_ports: overlaps node-1/,
    );
    expect(() => parseClusterFile("{", "nodes.json")).toThrowError(/nodes\.json is not valid JSON/);
  });
});
