ALTER TABLE "sso_states" ADD COLUMN "link_user_id" uuid;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "sso_states" ADD CONSTRAINT "sso_states_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_token_hash_unique" UNIQUE("token_hash");