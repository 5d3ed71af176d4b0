CREATE TABLE "used_room_tokens" (
	"token_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "recording_path" text;--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "call_logs_open_idx" ON "call_logs" USING btree ("workspace_id","heartbeat_at") WHERE "call_logs"."status" in ('queued', 'in_progress');