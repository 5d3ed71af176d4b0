import { ErrorResponse, StartCallResponse } from "@parley/contract";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { minutesUsedUpText } from "../src/modules/calls/minutes-allowance.ts";
import { claimsOf, testDatabaseKind } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { createAssistantOn, joinRoom, type ServerProcess as Server, useProcessPair } from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * Issue 17 item 2: a plan's monthly minutes hold across two server processes on one PostgreSQL.
 * Two calls joining at the same moment, one on each process, share what is left of the month (one
 * gets its full maximum duration, the other the rest), and a third call is refused on either
 * process while they run; once they end, only the seconds they used stay counted. PGlite is one
 * process per data directory, so this file runs only with PARLEY_TEST_DB=postgres.
 */

const onPostgres = testDatabaseKind === "postgres";
const MINUTES_PER_MONTH = 4;
const MAX_CALL_SECONDS = 180;

const pair = useProcessPair("parley_minutes", onPostgres);
const { on } = pair;
let agentId: string;

/** Seconds set aside for each running call, read straight from the shared database. */
async function grants(callIds: string[]): Promise<number[]> {
  const db = new pg.Client({ connectionString: pair.database.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ seconds: number }>(
      "select seconds from minute_grants where call_id = any($1::uuid[]) order by seconds",
      [callIds],
    );
    return rows.map((row) => row.seconds);
  } finally {
    await db.end();
  }
}

async function startOn(server: Server) {
  return on(server)("POST", `/agents/${agentId}/call`);
}

beforeAll(async () => {
  if (!onPostgres) return;
  const { id: userId, workspace_id: workspaceId } = claimsOf(pair.token);
  const quota = await on(pair.a)("PATCH", `/admin/enterprise-quotas/${String(userId)}`, {
    max_assistants: 10,
    minutes_per_month: MINUTES_PER_MONTH,
    concurrent_calls: 5,
    max_workspaces: 5,
  });
  if (quota.status !== 200) throw new Error(`quota failed: ${JSON.stringify(quota.body)}`);
  const limit = await on(pair.a)("PATCH", `/workspaces/${String(workspaceId)}`, { concurrency_limit: 5 });
  if (limit.status !== 200) throw new Error(`limit failed: ${JSON.stringify(limit.body)}`);
  // Nobody speaks in these calls, so the model is never asked.
  agentId = await createAssistantOn(on(pair.a), {
    ...callerFirstAssistant("Minutes desk"),
    max_call_duration: MAX_CALL_SECONDS,
  });
}, 60_000);

describe.skipIf(!onPostgres)("a plan's monthly minutes across two processes (PARLEY_TEST_DB=postgres)", () => {
  it("splits what is left between calls joining together on A and B, and refuses a third on both", {
    timeout: 180_000,
  }, async () => {
    const [onA, onB] = await Promise.all([startOn(pair.a), startOn(pair.b)]);
    expect(onA.status).toBe(201);
    expect(onB.status).toBe(201);
    const callA = StartCallResponse.parse(onA.body);
    const callB = StartCallResponse.parse(onB.body);
    // Both callers join at the same moment, each on the process that holds its room.
    const [callerA, callerB] = await Promise.all([
      joinRoom(pair.a, pair.token, callA.room.name, "caller-a"),
      joinRoom(pair.b, pair.token, callB.room.name, "caller-b"),
    ]);
    // 4 minutes for the month: one call got its full 3 minutes, the other the remaining one.
    expect(await grants([callA.call_id, callB.call_id])).toEqual([
      MINUTES_PER_MONTH * 60 - MAX_CALL_SECONDS,
      MAX_CALL_SECONDS,
    ]);

    for (const server of [pair.a, pair.b]) {
      const third = await startOn(server);
      expect(third.status).toBe(403);
      expect(ErrorResponse.parse(third.body).detail).toBe(minutesUsedUpText(MINUTES_PER_MONTH));
    }

    for (const caller of [callerA, callerB]) caller.send({ type: "hangup" });
    await Promise.all([callerA.closed, callerB.closed]);
    for (const call of [callA, callB]) {
      await pair.closedLog(pair.b, call.call_id);
    }
    // Ended, the calls count only the seconds they lasted: the month has room again, on either process.
    await until(
      () => grants([callA.call_id, callB.call_id]),
      (left) => left.length === 0,
      "the grants to be freed",
    );
    expect((await startOn(pair.b)).status).toBe(201);
  });
});
