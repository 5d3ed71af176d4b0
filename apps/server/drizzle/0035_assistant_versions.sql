ALTER TABLE "agents" ADD COLUMN "published_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "draft" jsonb;--> statement-breakpoint
CREATE TABLE "assistant_versions" (
	"agent_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"config" jsonb NOT NULL,
	"links" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"author_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistant_versions_agent_id_number_pk" PRIMARY KEY("agent_id","number")
);
--> statement-breakpoint
CREATE TABLE "call_versions" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"experiment_id" uuid,
	"variant_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"name" text NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"winner_version" integer,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"experiment_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"version" integer NOT NULL,
	"percent" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assistant_versions" ADD CONSTRAINT "assistant_versions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_versions" ADD CONSTRAINT "assistant_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_versions" ADD CONSTRAINT "call_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_versions" ADD CONSTRAINT "call_versions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_variants" ADD CONSTRAINT "experiment_variants_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_variants" ADD CONSTRAINT "experiment_variants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_versions_agent_idx" ON "call_versions" USING btree ("workspace_id","agent_id","version");--> statement-breakpoint
CREATE INDEX "call_versions_experiment_idx" ON "call_versions" USING btree ("experiment_id") WHERE "experiment_id" is not null;--> statement-breakpoint
CREATE INDEX "experiments_agent_idx" ON "experiments" USING btree ("workspace_id","agent_id","created_at");--> statement-breakpoint
-- One experiment at a time runs (or is paused) per assistant: a call must pick from one split.
CREATE UNIQUE INDEX "experiments_one_active_idx" ON "experiments" USING btree ("agent_id") WHERE "status" in ('running', 'paused');--> statement-breakpoint
CREATE INDEX "experiment_variants_experiment_idx" ON "experiment_variants" USING btree ("experiment_id","position");--> statement-breakpoint
-- Every assistant saved before versions existed becomes version 1 of itself, nothing lost: its fields
-- and name as the config, and what it was linked to (functions, tool servers, documents) and the
-- workflow version its calls ran, for the record.
INSERT INTO "assistant_versions" ("agent_id", "workspace_id", "number", "config", "links", "note", "created_at")
SELECT a."id", a."workspace_id", 1, a."config" || jsonb_build_object('name', a."name"),
	jsonb_build_object(
		'function_ids', coalesce((SELECT jsonb_agg(f."function_id" ORDER BY f."function_id") FROM "agent_functions" f WHERE f."agent_id" = a."id"), '[]'::jsonb),
		'mcp_server_ids', coalesce((SELECT jsonb_agg(m."mcp_server_id" ORDER BY m."mcp_server_id") FROM "agent_mcp_servers" m WHERE m."agent_id" = a."id"), '[]'::jsonb),
		'document_ids', coalesce((SELECT jsonb_agg(d."document_id" ORDER BY d."document_id") FROM "document_agents" d WHERE d."agent_id" = a."id"), '[]'::jsonb),
		'workflow_version', (SELECT max(w."version") FROM "workflow_versions" w WHERE w."workflow_id"::text = a."config" ->> 'workflow_id')
	),
	'Version 1 (the assistant as it was before versions)', a."updated_at"
FROM "agents" a;
