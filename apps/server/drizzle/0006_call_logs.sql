CREATE TABLE "call_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid,
	"agent_name" text NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"from_number" text,
	"to_number" text,
	"batch_call_id" uuid,
	"status" text NOT NULL,
	"end_reason" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"cost" double precision DEFAULT 0 NOT NULL,
	"cost_breakdown" jsonb,
	"transcript" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transcript_text" text DEFAULT '' NOT NULL,
	"tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"turn_metrics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"has_recording" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_recordings" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"wav" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_logs" ADD CONSTRAINT "call_logs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_logs" ADD CONSTRAINT "call_logs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recordings" ADD CONSTRAINT "call_recordings_call_id_call_logs_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recordings" ADD CONSTRAINT "call_recordings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_logs_workspace_started_idx" ON "call_logs" USING btree ("workspace_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "call_logs_agent_idx" ON "call_logs" USING btree ("workspace_id","agent_id");--> statement-breakpoint
CREATE INDEX "call_logs_batch_idx" ON "call_logs" USING btree ("workspace_id","batch_call_id") WHERE "call_logs"."batch_call_id" is not null;