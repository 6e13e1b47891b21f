CREATE TABLE "integration_installation_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_installation_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "integration_installation_tokens" ADD CONSTRAINT "integration_installation_tokens_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_installation_tokens" ADD CONSTRAINT "integration_installation_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_installation_tokens_installation_idx" ON "integration_installation_tokens" USING btree ("installation_id");