-- The assistant version a test run calls (issue 30), and the version each of its calls ran. Runs made
-- before versions could be chosen have none: their calls ran the version published at the time.
ALTER TABLE "test_runs" ADD COLUMN "agent_version" integer;--> statement-breakpoint
ALTER TABLE "test_results" ADD COLUMN "agent_version" integer;
