import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The one database type the services use, whether PGlite or a PostgreSQL server is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
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

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Folder of the SQL migrations (apps/server/drizzle); the caller knows where it was bundled from. */
  migrationsFolder: string;
}): Promise<DatabaseHandle> {
  const folder = options.migrationsFolder;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server ended (a restart, an administrator's command) is dropped by the
    // pool, which opens a new one when needed; without a listener that event would crash the process.
    // Queries in flight still fail where they run, and are reported there.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: "postgres",
      async migrate() {
        const { migrate } = await import("drizzle-orm/node-postgres/migrator");
        await migrate(drizzlePg(pool, { schema }), { migrationsFolder: folder });
      },
      close: () => pool.end(),
    };
  }
  // "memory://" keeps the whole database in memory (tests); otherwise it lives in DATA_DIR/pglite.
  const inMemory = options.dataDir === "memory://";
  const dir = inMemory ? undefined : path.resolve(options.dataDir, "pglite");
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockDataDir(`${dir}.lock`) : () => {};
  let client: PGlite;
  try {
    // pgvector ships with the server so knowledge documents get embedding search out of the box.
    const extensions = { vector };
    client = dir ? await PGlite.create(dir, { extensions }) : await PGlite.create({ extensions });
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    async migrate() {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzlePglite(client, { schema }), { migrationsFolder: folder });
    },
    async close() {
      await client.close();
      unlock();
    },
  };
}
