import { mkdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PGlite, type Transaction as PGliteTransaction, type QueryOptions, type Results } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
import { DRIZZLE_PARSERS, transactionWithoutInstanceParsers, withoutInstanceParsers } from "./pglite-parsers.ts";

/**
 * The one database type the services use, whether PGlite or a PostgreSQL server is behind it.
 * Without drizzle's relational schema: services query the tables they import, so the foundation
 * names no module's table.
 */
export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** A database handle or an open transaction: services accept either. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Runs the SQL migrations in apps/server/drizzle. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * When each open database last answered a statement (performance.now()): what the health checks
 * take for a sign of life before asking the database themselves (modules/health/database-check.ts).
 */
const answers = new WeakMap<Database, { at: number }>();

/** When `db` last finished a statement without losing its connection (performance.now()); 0 before any. */
export function lastAnsweredAt(db: Database): number {
  return answers.get(db)?.at ?? 0;
}

/** Connections to a PostgreSQL server: requests, call logs and background jobs share them. */
const POOL_MAX = 10;
/**
 * Connections kept open however quiet the server is. A burst (50 calls hanging up together, their
 * logs closing while requests keep coming) would otherwise find the pool shrunk to one or two and
 * wait for new connections: each is a TCP handshake, a SCRAM authentication and a backend process
 * start, ≈100–600 ms on a busy machine, which the health probe measured as a stall.
 */
const POOL_MIN = 5;
/** Connections above the minimum close after this long unused. */
const POOL_IDLE_MS = 30_000;

/** Opens `n` of the pool's connections at start, so the first burst does not pay for them. */
async function openConnections(pool: pg.Pool, n: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: n }, () => pool.connect()));
  for (const client of clients) client.release();
}

/**
 * PostgreSQL's page cache inside PGlite's WebAssembly memory. The default 128 MB is allocated at
 * start and grew the WebAssembly memory from its 128 MB floor to 189 MB, all of it resident: a
 * restarted server sat at ≈315 MB RSS. With 32 MB the memory stays at its floor (≈200 MB RSS after a
 * restart). Pages the cache does not hold are read from DATA_DIR through the operating system's
 * file cache, so a larger database costs a read call, not a disk seek (docs/decisions.md,
 * "Memory of the embedded database").
 */
const PGLITE_SHARED_BUFFERS = "32MB";

/** How long statements may run back to back on the main thread before other work gets a turn. */
const PGLITE_SLICE_MS = 4;

/**
 * PGlite runs each statement synchronously on the main thread, and statements queued behind one
 * another run back to back in the same turn of the event loop (each one's end hands the lock to
 * the next within microtasks). When 50 calls hang up together, their closing writes (and whatever
 * else waits) made one unbroken stretch: no request, no live call's audio in between. Here every
 * statement, exec or transaction takes a place in one queue; once the statements have held the
 * thread for PGLITE_SLICE_MS, the next waits for a turn of the event loop, in which requests and
 * audio are served (and the statements they bring join the queue's end). Idle or lightly loaded,
 * nothing changes: a statement with nobody ahead of it runs at once.
 */
class TakingTurnsPGlite extends PGlite {
  /** When a statement last completed (performance.now()). */
  answeredAt = 0;
  private busy = false;
  private sliceStartedAt = 0;
  private readonly waiting: (() => void)[] = [];

  // Every statement, exec, transaction (and describe, listen) of PGlite goes through this method.
  override async _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.takeTurn();
    try {
      const result = await super._runExclusiveTransaction(fn);
      this.answeredAt = performance.now();
      return result;
    } finally {
      this.passTurn();
    }
  }

  // drizzle's per-query parsers are the instance's own (pglite-parsers.ts): each query drops them.
  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return super.query<T>(query, params, withoutInstanceParsers(options));
  }

  override transaction<T>(callback: (tx: PGliteTransaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => callback(transactionWithoutInstanceParsers(tx)));
  }

  private takeTurn(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      this.sliceStartedAt = performance.now();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private passTurn(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.busy = false;
      return;
    }
    if (performance.now() - this.sliceStartedAt < PGLITE_SLICE_MS) {
      next();
      return;
    }
    setImmediate(() => {
      this.sliceStartedAt = performance.now();
      next();
    });
  }
}

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Folder of the SQL migrations (apps/server/drizzle); the caller knows where it was bundled from. */
  migrationsFolder: string;
}): Promise<DatabaseHandle> {
  const folder = options.migrationsFolder;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POOL_MAX,
      min: POOL_MIN,
      idleTimeoutMillis: POOL_IDLE_MS,
    });
    // An idle connection the server ended (a restart, an administrator's command) is dropped by the
    // pool, which opens a new one when needed; without a listener that event would crash the process.
    // Queries in flight still fail where they run, and are reported there.
    pool.on("error", () => {});
    const db = drizzlePg(pool) as unknown as Database;
    // A connection handed back without an error has had its round trips answered.
    const answered = { at: 0 };
    answers.set(db, answered);
    pool.on("release", (error) => {
      if (!error) answered.at = performance.now();
    });
    return {
      db,
      kind: "postgres",
      async migrate() {
        const { migrate } = await import("drizzle-orm/node-postgres/migrator");
        await migrate(drizzlePg(pool), { migrationsFolder: folder });
        await openConnections(pool, POOL_MIN);
      },
      close: () => pool.end(),
    };
  }
  // "memory://" keeps the whole database in memory (tests); otherwise it lives in DATA_DIR/pglite.
  const inMemory = options.dataDir === "memory://";
  const dir = inMemory ? undefined : path.resolve(options.dataDir, "pglite");
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockDataDir(`${dir}.lock`) : () => {};
  let client: TakingTurnsPGlite;
  try {
    // pgvector ships with the server so knowledge documents get embedding search out of the box.
    const extensions = { vector };
    const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
    const settings = { extensions, startParams, parsers: DRIZZLE_PARSERS };
    client = dir ? new TakingTurnsPGlite(dir, settings) : new TakingTurnsPGlite(settings);
    await client.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client) as unknown as Database;
  const pglite = client;
  answers.set(db, {
    get at() {
      return pglite.answeredAt;
    },
  });
  return {
    db,
    kind: "pglite",
    async migrate() {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzlePglite(client), { migrationsFolder: folder });
    },
    async close() {
      await client.close();
      unlock();
    },
  };
}

/** A PostgreSQL pool's connections and the queries waiting for one (benches, diagnostics); null on PGlite. */
export function poolUse(db: Database): { total: number; idle: number; waiting: number } | null {
  const client: unknown = (db as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return null;
  return { total: client.totalCount, idle: client.idleCount, waiting: client.waitingCount };
}
