import { ERROR_TEXTS } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { rateLimitBuckets } from "./schema.ts";

/**
 * Counts one hit against `key` in a fixed window and throws 429 once `limit` is passed.
 * Counters live in the database so every server process shares them.
 */
export async function hitRateLimit(
  db: Executor,
  options: { key: string; limit: number; windowSeconds: number; now: Date },
): Promise<void> {
  const { key, limit, windowSeconds, now } = options;
  const windowEnd = new Date(now.getTime() + windowSeconds * 1000);
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ key, count: 1, windowEndsAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        count: sql`case when ${rateLimitBuckets.windowEndsAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimitBuckets.count} + 1 end`,
        windowEndsAt: sql`case when ${rateLimitBuckets.windowEndsAt} <= ${now.toISOString()}::timestamptz then ${windowEnd.toISOString()}::timestamptz else ${rateLimitBuckets.windowEndsAt} end`,
      },
    })
    .returning();
  if (bucket && bucket.count > limit) {
    const retryAfter = Math.max(1, Math.ceil((bucket.windowEndsAt.getTime() - now.getTime()) / 1000));
    throw new AppError("rate_limited", ERROR_TEXTS.tooManyRequests, { "retry-after": String(retryAfter) });
  }
}
