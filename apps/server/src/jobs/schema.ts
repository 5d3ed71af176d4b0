import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export type JobStatus = "queued" | "running" | "done" | "failed";

/**
 * The durable work queue (document processing, crawls, later campaigns). A runner claims a row
 * with FOR UPDATE SKIP LOCKED, so several processes on one PostgreSQL never take the same job;
 * `locked_at` is renewed while the job runs, and a job whose lock went stale (its process died)
 * is claimed again.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<JobStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("jobs_claim_idx").on(t.queue, t.runAt).where(sql`${t.status} in ('queued', 'running')`)],
);

export type JobRow = typeof jobs.$inferSelect;
