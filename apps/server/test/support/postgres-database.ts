import { randomUUID } from "node:crypto";
import pg from "pg";

/** The machine's PostgreSQL, where the suite creates a database per app or per server process. */
export const POSTGRES_ADMIN_URL = process.env.PARLEY_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onAdminDatabase(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty database named `<prefix>_<random>`; `drop()` removes it even with connections open. */
export async function freshPostgresDatabase(prefix = "parley_test"): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await onAdminDatabase(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onAdminDatabase(`drop database if exists ${name} with (force)`) };
}
