import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "./schema.ts";

/**
 * What authentication needs to know of an account on every request, kept in memory so a request
 * with a valid token does not pay a database round trip for it (issue 18: the API near the bare
 * Fastify floor).
 *
 * Revocation still holds. Every write in this module that changes one of these fields forgets the
 * account's entry at once, so in one process deactivation, demotion and the sessions cut-off of a
 * password change apply to the very next request. A load that overlaps such a write is not kept
 * (the generation check), so it cannot put the old state back. Another process's write is seen
 * when the entry expires: at most FRESH_MS later.
 */
export interface AuthState {
  username: string;
  isSuperuser: boolean;
  tierId: string | null;
  isActive: boolean;
  sessionGeneration: number;
  keptSessionId: string | null;
}

const FRESH_MS = 5_000;
/** Enough for every signed-in account of a large install; past it the cache starts over. */
const MAX_ENTRIES = 50_000;

const entries = new Map<string, { state: AuthState; until: number }>();
let generation = 0;

/** The account's state, from memory when fresh; undefined when the account no longer exists. */
export async function authStateOf(db: Executor, userId: string, now = Date.now()): Promise<AuthState | undefined> {
  const cached = entries.get(userId);
  if (cached && cached.until > now) return cached.state;
  const startedAt = generation;
  const [state] = await db
    .select({
      username: users.username,
      isSuperuser: users.isSuperuser,
      tierId: users.tierId,
      isActive: users.isActive,
      sessionGeneration: users.sessionGeneration,
      keptSessionId: users.keptSessionId,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!state) {
    entries.delete(userId);
    return undefined;
  }
  if (startedAt === generation) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(userId, { state, until: now + FRESH_MS });
  }
  return state;
}

/** Drops what is known of one account (or of every account): the next request reads the database. */
export function forgetAuthState(userId?: string): void {
  generation += 1;
  if (userId === undefined) entries.clear();
  else entries.delete(userId);
}
