// API throughput next to a bare Fastify twin (issue 18 item 3): the same database, the same SQL the
// answers need (the user row and its enterprise flag for GET /users/me; the membership and the
// workspace's assistants, written as JSON by the database, for GET /agents), none of Parley's hooks, validation or serialisation.
// Both listen on 127.0.0.1 and are driven over real HTTP keep-alive connections by a load generator
// in a worker thread, in interleaved rounds, so the ratio compares like with like in one run.
// PARLEY_TEST_DB=postgres runs it on PostgreSQL; API_BENCH_SECONDS sets each round's length.

import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { and, eq } from "drizzle-orm";
import Fastify from "fastify";
import { listAssistantsJson } from "../apps/server/src/modules/assistants/service.ts";
import { enterpriseQuotas, users } from "../apps/server/src/modules/users/schema.ts";
import { workspaceMembers } from "../apps/server/src/modules/workspaces/schema.ts";
import { createTestApp, login, seedUser, testDatabaseKind } from "../apps/server/test/harness.ts";
import type { BenchResult } from "./run.ts";

const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const ROUNDS = 3;
const ASSISTANTS = 50;

interface Load {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  bytes: number;
}

/** Saturates one URL for SECONDS from a worker thread (the servers keep the main thread). */
function drive(url: string, token: string): Promise<Load> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const { Pool } = require(workerData.undici);
    (async () => {
      const { url, token, seconds, connections } = workerData;
      const target = new URL(url);
      const pool = new Pool(target.origin, { connections, pipelining: 1 });
      const samples = [];
      let bytes = 0;
      const end = performance.now() + seconds * 1000;
      const lane = async () => {
        while (performance.now() < end) {
          const start = performance.now();
          const res = await pool.request({ method: "GET", path: target.pathname, headers: { authorization: "Bearer " + token } });
          const body = Buffer.from(await res.body.arrayBuffer());
          if (res.statusCode !== 200) throw new Error(url + " answered " + res.statusCode + ": " + body.toString().slice(0, 200));
          bytes = body.length;
          samples.push(performance.now() - start);
        }
      };
      await Promise.all(Array.from({ length: connections }, lane));
      await pool.close();
      samples.sort((a, b) => a - b);
      const at = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] ?? 0;
      parentPort.postMessage({ rps: samples.length / seconds, p50_ms: at(0.5), p99_ms: at(0.99), bytes });
    })().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
  `;
  const worker = new Worker(source, {
    eval: true,
    workerData: {
      url,
      token,
      seconds: SECONDS,
      connections: CONNECTIONS,
      undici: createRequire(import.meta.url).resolve("undici"),
    },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (message: Load | { error: string }) => {
      void worker.terminate();
      if ("error" in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const t = await createTestApp({ LOGIN_RATE_LIMIT_PER_IP: "100000", LOGIN_RATE_LIMIT_PER_ACCOUNT: "100000" });
  const twin = Fastify({ logger: false });
  try {
    const { user, password } = await seedUser(t);
    const { token } = await login(t, user.username, password);
    for (let i = 0; i < ASSISTANTS; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/agents",
        headers: { authorization: `Bearer ${token}` },
        payload: { name: `Bench assistant ${i + 1}` },
      });
      if (res.statusCode !== 201) throw new Error(`could not create an assistant: ${res.body}`);
    }
    const { db, accessTokens } = t.ctx;
    // The twin: verify the same token, run the SQL the answer needs, JSON.stringify the rows.
    twin.get("/api/v1/users/me", async (request, reply) => {
      const claims = await accessTokens.verify(String(request.headers.authorization).slice(7));
      if (!claims) return reply.code(401).send();
      const [row] = await db.select().from(users).where(eq(users.id, claims.id));
      const [quota] = await db
        .select({ userId: enterpriseQuotas.userId })
        .from(enterpriseQuotas)
        .where(eq(enterpriseQuotas.userId, claims.id));
      return { ...row, passwordHash: undefined, enterprise: Boolean(quota) };
    });
    twin.get("/api/v1/agents", async (request, reply) => {
      const claims = await accessTokens.verify(String(request.headers.authorization).slice(7));
      if (!claims?.workspace_id) return reply.code(401).send();
      const [member] = await db
        .select({ role: workspaceMembers.role })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.userId, claims.id), eq(workspaceMembers.workspaceId, claims.workspace_id)));
      if (!member) return reply.code(404).send();
      // The same SQL as Parley's: the database writes the list's JSON (listAssistantsJson).
      const body = await listAssistantsJson(db, { workspaceId: claims.workspace_id });
      return reply.type("application/json; charset=utf-8").send(body);
    });
    const parleyUrl = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const twinUrl = await twin.listen({ host: "127.0.0.1", port: 0 });
    const rows: BenchResult["rows"] = [];
    for (const path of ["/api/v1/users/me", "/api/v1/agents"]) {
      const parley: Load[] = [];
      const bare: Load[] = [];
      // Warm both (JIT, connection pools), then interleave so drift hits both sides alike.
      await drive(`${twinUrl}${path}`, token);
      await drive(`${parleyUrl}${path}`, token);
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await drive(`${twinUrl}${path}`, token));
        parley.push(await drive(`${parleyUrl}${path}`, token));
      }
      const mean = (loads: Load[], key: keyof Load) => loads.reduce((sum, l) => sum + l[key], 0) / loads.length;
      rows.push({
        database: testDatabaseKind,
        endpoint: `GET ${path.replace("/api/v1", "")}`,
        parley_rps: Math.round(mean(parley, "rps")),
        twin_rps: Math.round(mean(bare, "rps")),
        ratio: +(mean(parley, "rps") / mean(bare, "rps")).toFixed(2),
        parley_p50_ms: +mean(parley, "p50_ms").toFixed(1),
        parley_p99_ms: +mean(parley, "p99_ms").toFixed(1),
        twin_p99_ms: +mean(bare, "p99_ms").toFixed(1),
        parley_bytes: parley[0]?.bytes ?? 0,
        twin_bytes: bare[0]?.bytes ?? 0,
      });
    }
    console.log(`api bench: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return { name: `api-${testDatabaseKind}`, rows };
  } finally {
    await twin.close();
    await t.close();
  }
}
