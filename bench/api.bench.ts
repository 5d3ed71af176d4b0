// API server overhead on the embedded database: password sign-in (argon2id dominates, by design)
// and an authenticated request, through Fastify's inject (no sockets), on in-memory PGlite.
import { performance } from "node:perf_hooks";
import { createTestApp, seedUser } from "../apps/server/test/harness.ts";
import type { BenchResult } from "./run.ts";

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(times: number, fn: () => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    p50_ms: +percentile(samples, 50).toFixed(2),
    p95_ms: +percentile(samples, 95).toFixed(2),
    per_second: +((times / total) * 1000).toFixed(0),
  };
}

export async function run(): Promise<BenchResult> {
  const t = await createTestApp({ LOGIN_RATE_LIMIT_PER_IP: "100000", LOGIN_RATE_LIMIT_PER_ACCOUNT: "100000" });
  try {
    const { user, password } = await seedUser(t);
    const form = new URLSearchParams({ username: user.username, password }).toString();
    let token = "";
    const login = await measure(30, async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/login",
        payload: form,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      token = res.json<{ access_token: string }>().access_token;
    });
    const me = await measure(500, async () => {
      await t.app.inject({ method: "GET", url: "/api/v1/users/me", headers: { authorization: `Bearer ${token}` } });
    });
    const workspaces = await measure(500, async () => {
      await t.app.inject({ method: "GET", url: "/api/v1/workspaces", headers: { authorization: `Bearer ${token}` } });
    });
    return {
      name: "api",
      rows: [
        { operation: "POST /login (argon2id)", ...login },
        { operation: "GET /users/me", ...me },
        { operation: "GET /workspaces", ...workspaces },
      ],
    };
  } finally {
    await t.close();
  }
}
