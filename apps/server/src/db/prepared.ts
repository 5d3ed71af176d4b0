import type { Executor } from "./client.ts";

/**
 * drizzle's `prepare(name)` without a name: the query is built once (drizzle's SQL building was a
 * fifth of a simple request's CPU, issue 35) but still sent as an unnamed statement, like every other
 * query — so it works through poolers that keep no named statements (PgBouncer in transaction mode).
 */
export const UNNAMED_STATEMENT = undefined as unknown as string;

/**
 * One prepared query per database handle (or transaction) it runs on: `build` prepares it with
 * UNNAMED_STATEMENT and `sql.placeholder`s for its parameters; the hot path only binds values.
 */
export function preparedFor<Query>(build: (db: Executor) => Query): (db: Executor) => Query {
  const built = new WeakMap<Executor, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
