-- One carrier call id is one call (issue 25, item 6). Logs that a replayed voice webhook opened
-- before this held the same carrier id as the call they copied: the oldest (the real call) keeps it.
UPDATE "call_logs" SET "provider_call_id" = NULL WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "provider", "provider_call_id" ORDER BY "started_at", "id") AS "n"
    FROM "call_logs" WHERE "provider_call_id" IS NOT NULL
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
DROP INDEX IF EXISTS "call_logs_provider_call_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "call_logs_provider_call_idx" ON "call_logs" USING btree ("provider","provider_call_id") WHERE "call_logs"."provider_call_id" is not null;
