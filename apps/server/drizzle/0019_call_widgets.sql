CREATE TABLE "call_widgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"appearance" jsonb NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"max_concurrent_calls" integer NOT NULL,
	"calls_per_visitor_per_hour" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"widget_id" uuid NOT NULL,
	"call_id" uuid,
	"visitor_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "call_widgets" ADD CONSTRAINT "call_widgets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_widgets" ADD CONSTRAINT "call_widgets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_calls" ADD CONSTRAINT "widget_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_calls" ADD CONSTRAINT "widget_calls_widget_id_call_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."call_widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_widgets_public_key_idx" ON "call_widgets" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "call_widgets_workspace_idx" ON "call_widgets" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "widget_calls_widget_created_idx" ON "widget_calls" USING btree ("widget_id","created_at");--> statement-breakpoint
CREATE INDEX "widget_calls_visitor_idx" ON "widget_calls" USING btree ("widget_id","visitor_key","created_at");