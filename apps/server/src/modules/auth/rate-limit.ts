import { ERROR_TEXTS } from "@parley/contract";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { rateLimitBuckets } from "./schema.ts";

export interface RateLimit {
  key: string;
  limit: number;
  windowSeconds: number;
  now: Date;
}

function tooMany(windowEndsAt: Date, now: Date) {
  const retryAfter = Math.max(1, Math.ceil((windowEndsAt.getTime() - now.getTime()) / 1000));
  return new AppError("rate_limited", ERROR_TEXTS.tooManyRequests, { "retry-after": String(retryAfter) });
}

/**
 * Counts one hit against `key` in a fixed window and returns the count so far in the window.
 * Counters live in the database so every server process shares them.
 */
export async function countHit(db: Executor, options: RateLimit) {
  const { key, windowSeconds, now } = options;
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
  if (!bucket) throw new Error("rate limit upsert returned no row");
  return bucket;
}

/** Counts one hit against `key` and throws 429 once `limit` is passed. */
export async function hitRateLimit(db: Executor, options: RateLimit): Promise<void> {
  const bucket = await countHit(db, options);
  if (bucket.count > options.limit) throw tooMany(bucket.windowEndsAt, options.now);
}

/** Throws 429 when `key` already reached `limit` in its current window, without counting a hit. */
export async function assertUnderRateLimit(db: Executor, options: RateLimit): Promise<void> {
  const [bucket] = await db
    .select()
    .from(rateLimitBuckets)
    .where(and(eq(rateLimitBuckets.key, options.key), gt(rateLimitBuckets.windowEndsAt, options.now)));
  if (bucket && bucket.count >= options.limit) throw tooMany(bucket.windowEndsAt, options.now);
}
