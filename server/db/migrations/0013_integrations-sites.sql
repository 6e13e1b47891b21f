CREATE TABLE "integration_site_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"integration_name" text NOT NULL,
	"site_id" text NOT NULL,
	"status" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"external_ids" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_site_installations_status_check" CHECK (status IN ('active', 'pending', 'paused'))
);
--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_site_installations_key" ON "integration_site_installations" USING btree ("installation_id","site_id");--> statement-breakpoint
CREATE INDEX "integration_site_installations_list_idx" ON "integration_site_installations" USING btree ("integration_name","id");