CREATE TABLE "squads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"members" jsonb NOT NULL,
	"handoffs" jsonb NOT NULL,
	"context" jsonb NOT NULL,
	"bridge_line" text,
	"max_handoffs" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_squads" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"squad_id" uuid,
	"start_member" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "squads" ADD CONSTRAINT "squads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_squads" ADD CONSTRAINT "call_squads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_squads" ADD CONSTRAINT "call_squads_squad_id_squads_id_fk" FOREIGN KEY ("squad_id") REFERENCES "public"."squads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "squads_workspace_name_idx" ON "squads" USING btree ("workspace_id","name");--> statement-breakpoint
-- A number answers with an assistant or a squad (issue 31); a deleted squad leaves it unassigned.
ALTER TABLE "phone_numbers" ADD COLUMN "squad_id" uuid;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_squad_id_squads_id_fk" FOREIGN KEY ("squad_id") REFERENCES "public"."squads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Which assistant ran which stretch of a squad's call; null for a call of one assistant.
ALTER TABLE "call_logs" ADD COLUMN "segments" jsonb;;--> statement-breakpoint
-- A widget's calls may start at a squad's first member instead of its assistant (issue 31).
ALTER TABLE "call_widgets" ADD COLUMN "squad_id" uuid;--> statement-breakpoint
ALTER TABLE "call_widgets" ADD CONSTRAINT "call_widgets_squad_id_squads_id_fk" FOREIGN KEY ("squad_id") REFERENCES "public"."squads"("id") ON DELETE set null ON UPDATE no action;;--> statement-breakpoint
-- A campaign may call with a squad (issue 31); like its assistant, an id checked when it dials.
ALTER TABLE "batch_calls" ADD COLUMN "squad_id" uuid;
