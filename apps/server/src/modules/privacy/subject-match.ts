import type { SubjectQuery } from "@parley/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";

/**
 * How a person is matched, shared by the search, the export and the erasure so that all three
 * reach the same records: calls from or to the number (or whose transcript names the email) and
 * campaign rows for the number (or with the email among the row's variables).
 */
export const callMatch = (query: SubjectQuery): SQL =>
  query.phone
    ? sql`(from_number = ${query.phone} or to_number = ${query.phone})`
    : sql`position(${query.email} in lower(transcript_text)) > 0`;

export const contactMatch = (query: SubjectQuery): SQL =>
  query.phone ? sql`number = ${query.phone}` : sql`position(${query.email} in lower(variables::text)) > 0`;

/** Ids as a SQL list for `in (…)`; callers keep a list to CHUNK ids (a statement takes 65 535 parameters). */
export const idList = (ids: readonly string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

export const CHUNK = 1_000;

/** Runs `each` over the ids a chunk at a time. */
export async function inChunks<T>(ids: readonly string[], each: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await each(ids.slice(i, i + CHUNK))));
  return out;
}

export async function rows<T>(db: Executor, statement: SQL): Promise<T[]> {
  // Both drivers answer with `rows`; drizzle's type for a raw statement does not say so.
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}
