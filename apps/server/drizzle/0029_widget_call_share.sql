ALTER TABLE "call_widgets" ALTER COLUMN "max_concurrent_calls" DROP NOT NULL;--> statement-breakpoint
UPDATE "call_widgets" SET "max_concurrent_calls" = NULL WHERE "max_concurrent_calls" = 5;
