ALTER TABLE "call_logs" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "provider_call_id" text;--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "phone_number_id" uuid;--> statement-breakpoint
CREATE INDEX "call_logs_provider_call_idx" ON "call_logs" USING btree ("provider","provider_call_id") WHERE "call_logs"."provider_call_id" is not null;