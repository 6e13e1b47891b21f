CREATE TABLE "integration_signing_secrets" (
	"integration_name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_name" text NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "integration_signing_secrets" ADD CONSTRAINT "integration_signing_secrets_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_tokens" ADD CONSTRAINT "integration_tokens_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_tokens" ADD CONSTRAINT "integration_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_tokens_integration_idx" ON "integration_tokens" USING btree ("integration_name");