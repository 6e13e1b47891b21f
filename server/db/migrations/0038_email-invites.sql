CREATE TABLE "invite_created_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "sso" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invite_created_users" ADD CONSTRAINT "invite_created_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_created_users" ADD CONSTRAINT "invite_created_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invites_token_idx" ON "organization_invites" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_email_check" CHECK ((email IS NULL) = (token_hash IS NULL));