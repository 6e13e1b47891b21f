CREATE TABLE "saml_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"label" text NOT NULL,
	"sso_url" text,
	"entity_id" text,
	"certificate" text,
	"default_team_id" text,
	"default_role" text,
	"default_role_set" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_providers_default_role_check" CHECK (default_role IN ('admin', 'create', 'review', 'edit', 'comment', 'read'))
);
--> statement-breakpoint
CREATE TABLE "openapi_spec_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"spec_id" text NOT NULL,
	"filesystem" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "openapi_specs" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"slug" text NOT NULL,
	"source_url" text,
	"source_text" text,
	"processing_state" text NOT NULL,
	"visibility" text NOT NULL,
	"last_version_id" text,
	"last_processed_at" timestamp with time zone,
	"last_process_error_code" text,
	"last_processed_errors" jsonb,
	"source_revision" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "openapi_specs_processing_state_check" CHECK (processing_state IN ('pending', 'progress', 'complete')),
	CONSTRAINT "openapi_specs_visibility_check" CHECK (visibility IN ('private', 'public')),
	CONSTRAINT "openapi_specs_error_code_check" CHECK (last_process_error_code IN ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR')),
	CONSTRAINT "openapi_specs_source_check" CHECK ((source_url IS NULL) <> (source_text IS NULL))
);
--> statement-breakpoint
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openapi_spec_versions" ADD CONSTRAINT "openapi_spec_versions_spec_id_openapi_specs_id_fk" FOREIGN KEY ("spec_id") REFERENCES "public"."openapi_specs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openapi_specs" ADD CONSTRAINT "openapi_specs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_providers_org_idx" ON "saml_providers" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "openapi_spec_versions_spec_idx" ON "openapi_spec_versions" USING btree ("spec_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "openapi_specs_org_slug_key" ON "openapi_specs" USING btree ("organization_id","slug");--> statement-breakpoint
CREATE INDEX "openapi_specs_org_idx" ON "openapi_specs" USING btree ("organization_id","id");