import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

interface Log {
  warn(obj: object, msg: string): void;
}

const checked = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether this database can store and compare embeddings. pgvector comes with the embedded
 * database; a PostgreSQL server may lack the `vector` extension (or the right to create it), and
 * then documents are searched by keywords only. The `embedding` column is added here, not in a
 * migration, because a migration cannot depend on an extension the server may not have.
 */
export function vectorSupport(db: Database, log: Log): Promise<boolean> {
  let result = checked.get(db);
  if (!result) {
    result = (async () => {
      try {
        await db.execute(sql`create extension if not exists vector`);
        await db.execute(sql`alter table document_chunks add column if not exists embedding vector`);
        return true;
      } catch (error) {
        log.warn(
          { err: error },
          "pgvector is not available in this PostgreSQL (CREATE EXTENSION vector failed): knowledge documents are searched by keywords only",
        );
        return false;
      }
    })();
    checked.set(db, result);
  }
  return result;
}

/** pgvector's text form of a vector. */
export const vectorLiteral = (values: number[]) => `[${values.map((v) => (Number.isFinite(v) ? v : 0)).join(",")}]`;
