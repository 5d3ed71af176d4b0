CREATE TABLE "cluster_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"active_calls" integer DEFAULT 0 NOT NULL,
	"version" text NOT NULL,
	"host" text NOT NULL,
	"http_port" integer NOT NULL,
	"sip_port" integer,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "node_id" text;