import { randomUUID } from "node:crypto";
import { createSocket } from "node:dgram";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../../deploy/src/local-cluster.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "../support/postgres-database.ts";
import { until } from "../support/until.ts";

/**
 * The reference deployment on this machine (deploy/src/local-cluster.ts): two nodes on one
 * PostgreSQL behind HAProxy and Kamailio. Requests are spread over the nodes, a socket URL carrying
 * a node's routing key reaches that node, SIP reaches a node through Kamailio, and a node stopped
 * with SIGTERM leaves both proxies' rotation while requests keep being answered.
 */

let database: PostgresDatabase;
let cluster: LocalCluster;

beforeAll(async () => {
  database = await freshPostgresDatabase("parley_deploy");
  cluster = await startLocalCluster({ nodes: 2, databaseUrl: database.url, env: { LOG_LEVEL: "info" } });
}, 600_000);

afterAll(async () => {
  await cluster?.stop();
  await database?.drop();
}, 120_000);

const readyNode = async (url: string) => {
  const res = await fetch(`${url}/api/v1/health/ready`);
  return { status: res.status, node: ((await res.json()) as { node?: string }).node };
};

/** One SIP OPTIONS over UDP; resolves with the response's first line and headers. */
async function sipOptions(host: string, port: number): Promise<string> {
  const socket = createSocket("udp4");
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  const local = socket.address().port;
  const request = [
    `OPTIONS sip:${host}:${port} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK${randomUUID()};rport`,
    "Max-Forwards: 70",
    `From: <sip:probe@127.0.0.1>;tag=${randomUUID().slice(0, 8)}`,
    `To: <sip:${host}:${port}>`,
    `Call-ID: ${randomUUID()}@127.0.0.1`,
    "CSeq: 1 OPTIONS",
    `Contact: <sip:probe@127.0.0.1:${local}>`,
    "Content-Length: 0",
    "",
    "",
  ].join("\r\n");
  try {
    const answer = once(socket, "message");
    socket.send(request, port, host);
    const [message] = (await Promise.race([
      answer,
      new Promise((_, reject) => setTimeout(() => reject(new Error("no SIP answer in 10 s")), 10_000)),
    ])) as [Buffer];
    return message.toString();
  } finally {
    socket.close();
  }
}

describe("a local cluster of two nodes behind HAProxy and Kamailio", () => {
  it("spreads requests over both nodes, all ready", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const answer = await readyNode(cluster.url);
      expect(answer.status).toBe(200);
      if (answer.node) seen.add(answer.node);
    }
    expect([...seen].sort()).toEqual(["node-1", "node-2"]);
    expect(await cluster.balancerState("node-1")).toBe("UP");
    expect(await cluster.dispatcherState("node-2")).toBe("active");
  });

  it("sends a socket URL carrying node-2's routing key to node-2 every time", async () => {
    const sessions = async (id: string) => Number((await cluster.balancerStat(id)).stot);
    const before = { one: await sessions("node-1"), two: await sessions("node-2") };
    for (const path of ["/api/v1/realtime/node-2?token=bad", "/api/v1/telephony/twilio/stream/node-2"]) {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${cluster.url}${path}`);
        await res.arrayBuffer();
      }
    }
    expect(await sessions("node-2")).toBe(before.two + 6);
    expect(await sessions("node-1")).toBe(before.one);
  });

  it("answers SIP OPTIONS sent to Kamailio from a node", async () => {
    if (!cluster.sip) throw new Error("the cluster runs without SIP");
    const answer = await sipOptions(cluster.sip.host, cluster.sip.port);
    expect(answer).toMatch(/^SIP\/2\.0 200 /);
    expect(answer).toContain("Server: Parley");
  });

  it("takes a node stopped with SIGTERM out of both proxies within seconds while requests keep succeeding, and back in when it starts", async () => {
    const statuses: number[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const res = await fetch(`${cluster.url}/api/v1/health/live`);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    })();
    const started = Date.now();
    const exited = cluster.stopNode("node-1", "SIGTERM");
    const down = await until(
      async () => ({ balancer: await cluster.balancerState("node-1"), sip: await cluster.dispatcherState("node-1") }),
      (s) => s.balancer.startsWith("DOWN") && s.sip === "inactive",
      "HAProxy to mark node-1 DOWN and Kamailio inactive",
      60_000,
    );
    const outSeconds = (Date.now() - started) / 1000;
    expect(await exited).toEqual({ code: 0, signal: null });
    // A few more requests after node-1 is gone, all answered by node-2.
    const after = statuses.length;
    await until(
      async () => statuses.length,
      (n) => n >= after + 20,
      "requests after the stop",
    );
    loading = false;
    await load;
    console.log(`node-1 out of rotation ${outSeconds.toFixed(1)} s after SIGTERM: ${JSON.stringify(down)}`);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(cluster.node("node-1").output()).toContain("draining: taking no new calls or jobs");
    expect((await readyNode(cluster.url)).node).toBe("node-2");

    await cluster.startNode("node-1");
    expect(await cluster.balancerState("node-1")).toBe("UP");
    expect(await cluster.dispatcherState("node-1")).toBe("active");
    expect(cluster.node("node-1").pid()).not.toBeNull();
  }, 600_000);
});
