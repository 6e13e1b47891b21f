CREATE TABLE "signing_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_redirects" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"source" text NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"capture_wildcard" boolean DEFAULT false NOT NULL,
	"permanent" boolean DEFAULT false NOT NULL,
	"destination" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_redirects_source_idx" ON "site_redirects" USING btree ("site_id","draft","source" COLLATE "C");--> statement-breakpoint
CREATE INDEX "site_redirects_site_created_idx" ON "site_redirects" USING btree ("site_id","created_at","id");