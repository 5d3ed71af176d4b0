ALTER TABLE "test_results" ADD COLUMN "caller_turns" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "test_results" ADD COLUMN "call_events" jsonb DEFAULT '[]'::jsonb NOT NULL;