CREATE TABLE "analytics_rollups" (
	"workspace_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"agent_id" uuid,
	"agent_version" integer,
	"phone_number" text,
	"batch_call_id" uuid,
	"channel" text NOT NULL,
	"end_reason" text DEFAULT '' NOT NULL,
	"squad_member" text,
	"agent_name" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error_calls" integer DEFAULT 0 NOT NULL,
	"transfers" integer DEFAULT 0 NOT NULL,
	"analysed" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"duration_hist" integer[] NOT NULL,
	"cost" double precision DEFAULT 0 NOT NULL,
	"cost_llm" double precision DEFAULT 0 NOT NULL,
	"cost_stt" double precision DEFAULT 0 NOT NULL,
	"cost_tts" double precision DEFAULT 0 NOT NULL,
	"cost_telephony" double precision DEFAULT 0 NOT NULL,
	"cost_platform" double precision DEFAULT 0 NOT NULL,
	"lat_eot_hist" integer[] NOT NULL,
	"lat_stt_hist" integer[] NOT NULL,
	"lat_llm_hist" integer[] NOT NULL,
	"lat_tts_hist" integer[] NOT NULL,
	"lat_v2v_hist" integer[] NOT NULL,
	"lat_eot_sum" double precision DEFAULT 0 NOT NULL,
	"lat_stt_sum" double precision DEFAULT 0 NOT NULL,
	"lat_llm_sum" double precision DEFAULT 0 NOT NULL,
	"lat_tts_sum" double precision DEFAULT 0 NOT NULL,
	"lat_v2v_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_rollups_key" UNIQUE NULLS NOT DISTINCT("workspace_id","hour","agent_id","agent_version","phone_number","batch_call_id","channel","end_reason","squad_member")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"workspace_id" uuid NOT NULL,
	"day" date NOT NULL,
	"agent_id" uuid,
	"agent_version" integer,
	"phone_number" text,
	"batch_call_id" uuid,
	"channel" text NOT NULL,
	"end_reason" text DEFAULT '' NOT NULL,
	"squad_member" text,
	"agent_name" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error_calls" integer DEFAULT 0 NOT NULL,
	"transfers" integer DEFAULT 0 NOT NULL,
	"analysed" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"duration_hist" integer[] NOT NULL,
	"cost" double precision DEFAULT 0 NOT NULL,
	"cost_llm" double precision DEFAULT 0 NOT NULL,
	"cost_stt" double precision DEFAULT 0 NOT NULL,
	"cost_tts" double precision DEFAULT 0 NOT NULL,
	"cost_telephony" double precision DEFAULT 0 NOT NULL,
	"cost_platform" double precision DEFAULT 0 NOT NULL,
	"lat_eot_hist" integer[] NOT NULL,
	"lat_stt_hist" integer[] NOT NULL,
	"lat_llm_hist" integer[] NOT NULL,
	"lat_tts_hist" integer[] NOT NULL,
	"lat_v2v_hist" integer[] NOT NULL,
	"lat_eot_sum" double precision DEFAULT 0 NOT NULL,
	"lat_stt_sum" double precision DEFAULT 0 NOT NULL,
	"lat_llm_sum" double precision DEFAULT 0 NOT NULL,
	"lat_tts_sum" double precision DEFAULT 0 NOT NULL,
	"lat_v2v_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_key" UNIQUE NULLS NOT DISTINCT("workspace_id","day","agent_id","agent_version","phone_number","batch_call_id","channel","end_reason","squad_member")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_totals" (
	"workspace_id" uuid NOT NULL,
	"day" date NOT NULL,
	"agent_name" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error_calls" integer DEFAULT 0 NOT NULL,
	"transfers" integer DEFAULT 0 NOT NULL,
	"analysed" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"duration_hist" integer[] NOT NULL,
	"cost" double precision DEFAULT 0 NOT NULL,
	"cost_llm" double precision DEFAULT 0 NOT NULL,
	"cost_stt" double precision DEFAULT 0 NOT NULL,
	"cost_tts" double precision DEFAULT 0 NOT NULL,
	"cost_telephony" double precision DEFAULT 0 NOT NULL,
	"cost_platform" double precision DEFAULT 0 NOT NULL,
	"lat_eot_hist" integer[] NOT NULL,
	"lat_stt_hist" integer[] NOT NULL,
	"lat_llm_hist" integer[] NOT NULL,
	"lat_tts_hist" integer[] NOT NULL,
	"lat_v2v_hist" integer[] NOT NULL,
	"lat_eot_sum" double precision DEFAULT 0 NOT NULL,
	"lat_stt_sum" double precision DEFAULT 0 NOT NULL,
	"lat_llm_sum" double precision DEFAULT 0 NOT NULL,
	"lat_tts_sum" double precision DEFAULT 0 NOT NULL,
	"lat_v2v_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_totals_key" UNIQUE("workspace_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_calls" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"agent_id" uuid,
	"agent_version" integer,
	"phone_number" text,
	"batch_call_id" uuid,
	"channel" text NOT NULL,
	"end_reason" text DEFAULT '' NOT NULL,
	"squad_member" text,
	"ended_at" timestamp with time zone NOT NULL,
	"answered" boolean NOT NULL,
	"error_end" boolean NOT NULL,
	"passed" boolean,
	"cost" double precision DEFAULT 0 NOT NULL,
	"cost_llm" double precision DEFAULT 0 NOT NULL,
	"cost_stt" double precision DEFAULT 0 NOT NULL,
	"cost_tts" double precision DEFAULT 0 NOT NULL,
	"cost_telephony" double precision DEFAULT 0 NOT NULL,
	"cost_platform" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_backfill" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"threshold" double precision NOT NULL,
	"window_calls" integer NOT NULL,
	"window_hours" integer NOT NULL,
	"component" text NOT NULL,
	"agent_id" uuid,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"firing" boolean DEFAULT false NOT NULL,
	"last_value" double precision,
	"last_evaluated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"rule_id" uuid,
	"rule_name" text NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"value" double precision NOT NULL,
	"threshold" double precision NOT NULL,
	"message" text NOT NULL,
	"emailed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_rollups" ADD CONSTRAINT "analytics_rollups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_totals" ADD CONSTRAINT "analytics_daily_totals_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_calls" ADD CONSTRAINT "analytics_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_backfill" ADD CONSTRAINT "analytics_backfill_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_calls_recent_idx" ON "analytics_calls" USING btree ("workspace_id","ended_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "alert_rules_workspace_idx" ON "alert_rules" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "alert_events_workspace_idx" ON "alert_events" USING btree ("workspace_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
-- The calls that ended before analytics existed are rolled up by the job this queues, through the
-- same code as a call that ends now (modules/analytics/backfill-across-workspaces.ts).
INSERT INTO "analytics_backfill" ("call_id", "workspace_id")
	SELECT "id", "workspace_id" FROM "call_logs" WHERE "status" NOT IN ('queued', 'in_progress');--> statement-breakpoint
INSERT INTO "jobs" ("queue", "payload", "max_attempts") VALUES ('analytics.backfill', '{}'::jsonb, 10);
