// A start-up upkeep that crosses workspaces on purpose: it runs before any request, over every
// workspace's functions, because only the server holds the key that seals their headers.

import { and, eq, notLike } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { functions } from "./schema.ts";

/**
 * Seals header maps stored in the clear before headers were encrypted (migration 0009 turned the
 * JSON column into text; only the server holds the key, so the sealing happens here, at start-up).
 * Each row is written only if it still holds the plain text read, so concurrent starts agree.
 */
export async function sealPlainFunctionHeaders(ctx: Pick<AppContext, "db" | "secrets">): Promise<number> {
  const plain = await ctx.db
    .select({ id: functions.id, headers: functions.headers })
    .from(functions)
    .where(notLike(functions.headers, "v1.%"));
  for (const row of plain) {
    // The cast left the map's JSON text, which is what a sealed value holds.
    await ctx.db
      .update(functions)
      .set({ headers: ctx.secrets.encrypt(row.headers) })
      .where(and(eq(functions.id, row.id), eq(functions.headers, row.headers)));
  }
  return plain.length;
}
