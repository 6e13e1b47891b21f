CREATE TABLE "integration_assets" (
	"integration_name" text NOT NULL,
	"file" text NOT NULL,
	"content_type" text NOT NULL,
	"data" text NOT NULL,
	CONSTRAINT "integration_assets_integration_name_file_pk" PRIMARY KEY("integration_name","file")
);
--> statement-breakpoint
CREATE TABLE "integration_events" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_name" text NOT NULL,
	"installation_id" text,
	"organization_id" text,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"logs" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_events_status_check" CHECK (status IN ('pending', 'success', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "integration_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_name" text NOT NULL,
	"organization_id" text NOT NULL,
	"status" text NOT NULL,
	"space_selection" text NOT NULL,
	"site_selection" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"external_ids" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_installations_status_check" CHECK (status IN ('active', 'pending', 'paused')),
	CONSTRAINT "integration_installations_space_selection_check" CHECK (space_selection IN ('all', 'selected')),
	CONSTRAINT "integration_installations_site_selection_check" CHECK (site_selection IN ('all', 'selected'))
);
--> statement-breakpoint
CREATE TABLE "integration_scripts" (
	"integration_name" text PRIMARY KEY NOT NULL,
	"runtime" text NOT NULL,
	"script" text NOT NULL,
	"secrets" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_space_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"integration_name" text NOT NULL,
	"space_id" text NOT NULL,
	"status" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"external_ids" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_space_installations_status_check" CHECK (status IN ('active', 'pending', 'paused'))
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"name" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"summary" text,
	"visibility" text NOT NULL,
	"target" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"scopes" text[] NOT NULL,
	"categories" text[] NOT NULL,
	"blocks" jsonb NOT NULL,
	"block_domains" text[] NOT NULL,
	"content_sources" jsonb NOT NULL,
	"external_links" jsonb NOT NULL,
	"configurations" jsonb NOT NULL,
	"content_security_policy" jsonb,
	"icon_file" text,
	"preview_files" text[] NOT NULL,
	"dev_tunnel_url" text,
	"dev_all" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integrations_visibility_check" CHECK (visibility IN ('public', 'private', 'unlisted')),
	CONSTRAINT "integrations_target_check" CHECK (target IN ('all', 'site', 'space', 'organization'))
);
--> statement-breakpoint
ALTER TABLE "integration_assets" ADD CONSTRAINT "integration_assets_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_installations" ADD CONSTRAINT "integration_installations_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_installations" ADD CONSTRAINT "integration_installations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_scripts" ADD CONSTRAINT "integration_scripts_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_integration_name_integrations_name_fk" FOREIGN KEY ("integration_name") REFERENCES "public"."integrations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_events_list_idx" ON "integration_events" USING btree ("integration_name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_installations_org_key" ON "integration_installations" USING btree ("integration_name","organization_id");--> statement-breakpoint
CREATE INDEX "integration_installations_list_idx" ON "integration_installations" USING btree ("integration_name","id");--> statement-breakpoint
CREATE INDEX "integration_installations_external_ids_idx" ON "integration_installations" USING gin ("external_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_space_installations_key" ON "integration_space_installations" USING btree ("installation_id","space_id");--> statement-breakpoint
CREATE INDEX "integration_space_installations_list_idx" ON "integration_space_installations" USING btree ("integration_name","id");--> statement-breakpoint
CREATE INDEX "integrations_org_idx" ON "integrations" USING btree ("organization_id","name");