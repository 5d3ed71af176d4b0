CREATE TABLE "live_rooms" (
	"name" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"agent_name" text NOT NULL,
	"call_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"participants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"owner_id" text NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_rooms" ADD CONSTRAINT "live_rooms_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_rooms_workspace_idx" ON "live_rooms" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "live_rooms_owner_idx" ON "live_rooms" USING btree ("owner_id");