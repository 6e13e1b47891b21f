CREATE TABLE "site_sections" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"kind" text NOT NULL,
	"parent_id" text,
	"title" text NOT NULL,
	"icon" text,
	"description" text,
	"path" text,
	"condition" text,
	"default_site_space_id" text,
	"position" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "site_sections_kind_check" CHECK (kind IN ('section', 'group'))
);
--> statement-breakpoint
CREATE TABLE "site_spaces" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"section_id" text,
	"space_id" text NOT NULL,
	"path" text NOT NULL,
	"condition" text,
	"position" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"visibility" text NOT NULL,
	"basename" text,
	"hostname" text,
	"proxy" text,
	"published" boolean DEFAULT false NOT NULL,
	"agents_context" text DEFAULT 'included' NOT NULL,
	"adaptive_enabled" boolean DEFAULT false NOT NULL,
	"adaptive_schema" jsonb,
	"adaptive_schema_updated_at" timestamp with time zone,
	"share_key" text NOT NULL,
	"default_section_id" text,
	"default_site_space_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sites_hostname_unique" UNIQUE("hostname"),
	CONSTRAINT "sites_type_check" CHECK (type IN ('basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium')),
	CONSTRAINT "sites_visibility_check" CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth')),
	CONSTRAINT "sites_agents_context_check" CHECK (agents_context IN ('excluded', 'included'))
);
--> statement-breakpoint
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_parent_id_site_sections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."site_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_default_site_space_id_site_spaces_id_fk" FOREIGN KEY ("default_site_space_id") REFERENCES "public"."site_spaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_section_id_site_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."site_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_default_section_id_site_sections_id_fk" FOREIGN KEY ("default_section_id") REFERENCES "public"."site_sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_default_site_space_id_site_spaces_id_fk" FOREIGN KEY ("default_site_space_id") REFERENCES "public"."site_spaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_sections_parent_idx" ON "site_sections" USING btree ("site_id","parent_id","position","id");--> statement-breakpoint
CREATE INDEX "site_sections_site_idx" ON "site_sections" USING btree ("site_id","kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_spaces_site_position_idx" ON "site_spaces" USING btree ("site_id","position","id");--> statement-breakpoint
CREATE INDEX "site_spaces_section_idx" ON "site_spaces" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "site_spaces_space_idx" ON "site_spaces" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "sites_org_idx" ON "sites" USING btree ("organization_id","id");