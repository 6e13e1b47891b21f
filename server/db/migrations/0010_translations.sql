CREATE TABLE "translations" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"source_space_id" text NOT NULL,
	"source_language" text NOT NULL,
	"language" text NOT NULL,
	"instructions" jsonb,
	"status" text NOT NULL,
	"result_space_id" text,
	"result_revision_id" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"total_words" integer DEFAULT 0 NOT NULL,
	"total_pages" integer DEFAULT 0 NOT NULL,
	"total_duration" double precision DEFAULT 0 NOT NULL,
	"latest_run_duration" double precision,
	"latest_pages" integer,
	"latest_words" integer,
	"newest_first" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "translations_status_check" CHECK (status IN ('pending', 'running', 'completed'))
);
--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_source_space_id_spaces_id_fk" FOREIGN KEY ("source_space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_result_space_id_spaces_id_fk" FOREIGN KEY ("result_space_id") REFERENCES "public"."spaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "translations_org_newest_idx" ON "translations" USING btree ("organization_id","newest_first");