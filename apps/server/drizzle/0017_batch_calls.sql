CREATE TABLE "batch_call_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"batch_call_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"number" text NOT NULL,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timezone" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_outcome" text,
	"call_id" uuid,
	"next_attempt_at" timestamp with time zone,
	"dial_started_at" timestamp with time zone,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"agent_id" uuid,
	"from_phone_number_id" uuid NOT NULL,
	"scheduled_time" timestamp with time zone,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"calling_window" jsonb,
	"retry_policy" jsonb NOT NULL,
	"concurrency" integer NOT NULL,
	"spend_cap" double precision,
	"spent" double precision DEFAULT 0 NOT NULL,
	"default_country" text,
	"status" text DEFAULT 'created' NOT NULL,
	"pause_reason" text,
	"is_archived" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "do_not_call" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"number" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_call_contacts" ADD CONSTRAINT "batch_call_contacts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_call_contacts" ADD CONSTRAINT "batch_call_contacts_batch_call_id_batch_calls_id_fk" FOREIGN KEY ("batch_call_id") REFERENCES "public"."batch_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_calls" ADD CONSTRAINT "batch_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "do_not_call" ADD CONSTRAINT "do_not_call_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_call_contacts_number_idx" ON "batch_call_contacts" USING btree ("batch_call_id","number");--> statement-breakpoint
CREATE INDEX "batch_call_contacts_claim_idx" ON "batch_call_contacts" USING btree ("batch_call_id","status","position");--> statement-breakpoint
CREATE INDEX "batch_calls_list_idx" ON "batch_calls" USING btree ("workspace_id","is_archived","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "do_not_call_number_idx" ON "do_not_call" USING btree ("workspace_id","number");