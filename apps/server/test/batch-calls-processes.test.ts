import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BatchCall } from "@parley/contract";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { numbers } from "./batch-calls/world.ts";
import { testDatabaseKind } from "./harness.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "./support/postgres-database.ts";
import {
  client,
  killServerProcess,
  prepareWorkspace,
  type ServerProcess,
  signInAdmin,
  startServerProcess,
  stopServerProcess,
} from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * The dialer across processes (issue 14 acceptance): a kill -9 mid-campaign and a restart on the
 * same data directory finishes with every contact dialled exactly once; two server processes on one
 * PostgreSQL share a campaign without a contact dialled twice or the concurrency exceeded (that one
 * runs with PARLEY_TEST_DB=postgres). Every call is busy at the Twilio double, so no assistant runs.
 */

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550100";
/** Sixty contacts dialled on a busy machine: generous, since nothing here is timed. */
const CAMPAIGN_TIMEOUT_MS = 120_000;

let double: Awaited<ReturnType<typeof startTwilioDouble>>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  double = await startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map(stopServerProcess));
});
afterAll(async () => double?.close());

const credentials = () => ({ account_sid: SID, auth_token: TOKEN, base_url: double.origin });
const outbound = () => [...double.calls.values()].filter((c) => c.direction === "outbound");

async function start(options: { dataDir: string; databaseUrl?: string }) {
  const server = await startServerProcess(options);
  servers.push(server);
  return server;
}

async function campaign(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<string> {
  const created = await api("POST", "/batch-calls", { name: "Across processes", ...body });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const id = BatchCall.pick({ id: true }).parse(created.body).id;
  const started = await api("POST", `/initiate_batch_call?batch_call_id=${id}`);
  if (started.status !== 200) throw new Error(`initiate failed: ${JSON.stringify(started.body)}`);
  return id;
}

const finished = (b: BatchCall) => ["completed", "failed", "partial", "cancelled"].includes(b.status);

/** A server on a fresh data directory with the Twilio number ready to dial from. */
async function firstProcess(prefix: string) {
  double.setOutbound({ outcome: "busy", ringMs: 300 });
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const server = await start({ dataDir });
  const api = client(server.base, await signInAdmin(server.base));
  const phoneNumberId = await prepareWorkspace(api, {
    concurrencyLimit: 20,
    credentials: credentials(),
    number: NUMBER,
  });
  return { dataDir, server, api, phoneNumberId };
}

/** Starts a second process on the same data directory and waits for the campaign to finish there. */
async function finishAfterRestart(dataDir: string, id: string): Promise<BatchCall> {
  const second = await start({ dataDir });
  const again = client(second.base, await signInAdmin(second.base));
  return until(
    async () => BatchCall.parse((await again("GET", `/batch-calls/${id}`)).body),
    finished,
    "the campaign to finish after the restart",
    CAMPAIGN_TIMEOUT_MS,
  );
}

/** Each contact got exactly `times` calls at the carrier since `placedBefore` calls had been placed. */
function expectDialledEach(contacts: string[], placedBefore: number, times = 1) {
  const placed = outbound().slice(placedBefore);
  for (const number of contacts)
    expect(
      placed.filter((c) => c.to === number),
      number,
    ).toHaveLength(times);
}

describe("a campaign across a kill -9", () => {
  it("finishes after a restart with every contact dialled exactly once", async () => {
    const { dataDir, server, api, phoneNumberId } = await firstProcess("parley-batch-kill-");
    const contacts = numbers(60, 80_000);
    const placedBefore = outbound().length;
    const id = await campaign(api, { from_phone_number_id: phoneNumberId, phone_numbers: contacts, concurrency: 6 });
    await until(
      async () => outbound().length - placedBefore,
      (n) => n >= 15,
      "calls before the kill",
      CAMPAIGN_TIMEOUT_MS,
    );
    await killServerProcess(server);

    const done = await finishAfterRestart(dataDir, id);
    expectDialledEach(contacts, placedBefore);
    expect(done.phone_numbers.every((c) => c.attempts === 1 && c.status !== "pending" && c.status !== "dialing")).toBe(
      true,
    );
    expect(done.status).toBe("failed");
  }, 240_000);
});

describe("a dial cut off between its call log and the carrier's answer", () => {
  it("is dialled again when the carrier never got it, and followed when it did: once each either way", async () => {
    const { dataDir, server, api, phoneNumberId } = await firstProcess("parley-batch-window-");
    const contacts = numbers(4, 90_000);
    const [, lost, unanswered] = contacts as [string, string, string, string];
    // One request never reaches the carrier; the other is placed there but its answer never returns.
    const stalled = Promise.all([
      double.stallNextCall(lost, "before-create"),
      double.stallNextCall(unanswered, "after-create"),
    ]);
    const placedBefore = outbound().length;
    const id = await campaign(api, { from_phone_number_id: phoneNumberId, phone_numbers: contacts, concurrency: 4 });
    await stalled;
    await killServerProcess(server);

    const done = await finishAfterRestart(dataDir, id);
    expectDialledEach(contacts, placedBefore);
    expect(done.phone_numbers.every((c) => c.attempts === 1)).toBe(true);
  }, 240_000);
});

describe.runIf(testDatabaseKind === "postgres")("a campaign on two server processes sharing PostgreSQL", () => {
  let database: PostgresDatabase | undefined;

  afterAll(async () => database?.drop(), 60_000);

  it("dials every contact once per attempt, never above the campaign's concurrency", async () => {
    double.setOutbound({ outcome: "busy", ringMs: 100 });
    database = await freshPostgresDatabase("parley_batch");
    const dir = () => mkdtempSync(path.join(tmpdir(), "parley-batch-pg-"));
    // One after the other: the first runs the migrations.
    const a = await start({ dataDir: dir(), databaseUrl: database.url });
    const b = await start({ dataDir: dir(), databaseUrl: database.url });
    const api = client(a.base, await signInAdmin(a.base));
    const phoneNumberId = await prepareWorkspace(api, {
      concurrencyLimit: 50,
      credentials: credentials(),
      number: NUMBER,
    });
    const contacts = numbers(200, 90_000);
    const placedBefore = outbound().length;
    let maxLive = 0;
    const sampler = setInterval(() => {
      maxLive = Math.max(maxLive, outbound().filter((c) => !c.ended).length);
    }, 10);
    try {
      const id = await campaign(api, {
        from_phone_number_id: phoneNumberId,
        phone_numbers: contacts,
        concurrency: 20,
        retry_policy: { max_attempts: 2, delay_seconds: 0, retry_on: ["busy"] },
      });
      const onB = client(b.base, await signInAdmin(b.base));
      const done = await until(
        async () => BatchCall.parse((await onB("GET", `/batch-calls/${id}`)).body),
        finished,
        "the campaign to finish",
        CAMPAIGN_TIMEOUT_MS,
      );
      expect(done.status).toBe("failed");
      expect(done.phone_numbers.every((c) => c.status === "busy" && c.attempts === 2)).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expectDialledEach(contacts, placedBefore, 2);
    expect(maxLive).toBeLessThanOrEqual(20);
  }, 240_000);
});
