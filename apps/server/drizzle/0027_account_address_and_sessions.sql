ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "users" SET "email_verified" = false WHERE EXISTS (SELECT 1 FROM "sso_identities" "i" WHERE "i"."user_id" = "users"."id" AND "i"."created_at" = "users"."created_at");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "kept_session_id" uuid;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "sessions_valid_from";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "session_generation" integer DEFAULT 0 NOT NULL;
