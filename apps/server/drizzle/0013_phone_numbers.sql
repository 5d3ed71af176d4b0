CREATE TABLE "phone_numbers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"number" text NOT NULL,
	"friendly_name" text DEFAULT '' NOT NULL,
	"country" text,
	"provider" text NOT NULL,
	"agent_id" uuid,
	"outbound_agent_id" uuid,
	"integration_id" uuid,
	"provider_number_id" text,
	"sip_trunk" jsonb,
	"sip_password" text,
	"extension" text,
	"extension_domain" text,
	"sip_username" text,
	"sip_ha1" text,
	"whatsapp_phone_number_id" text,
	"whatsapp_business_account_id" text,
	"whatsapp_access_token" text,
	"whatsapp_app_secret" text,
	"whatsapp_verify_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_outbound_agent_id_agents_id_fk" FOREIGN KEY ("outbound_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_workspace_number_idx" ON "phone_numbers" USING btree ("workspace_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_extension_idx" ON "phone_numbers" USING btree ("extension_domain","extension") WHERE "phone_numbers"."provider" = 'extension';--> statement-breakpoint
CREATE INDEX "phone_numbers_number_idx" ON "phone_numbers" USING btree ("number");