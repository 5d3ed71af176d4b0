CREATE TABLE "sip_active_calls" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"domain" text NOT NULL,
	"process_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"domain" text NOT NULL,
	"contact" text NOT NULL,
	"transport" text NOT NULL,
	"source_address" text NOT NULL,
	"source_port" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"process_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sip_active_calls_identity_idx" ON "sip_active_calls" USING btree ("username","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sip_registrations_binding_idx" ON "sip_registrations" USING btree ("username","domain","contact");--> statement-breakpoint
CREATE INDEX "sip_registrations_expires_idx" ON "sip_registrations" USING btree ("expires_at");