CREATE TABLE "content_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL,
	"parents" jsonb NOT NULL,
	"type" text NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "content_revisions_type_check" CHECK (type IN ('edits', 'merge', 'rollback', 'update', 'computed'))
);
--> statement-breakpoint
CREATE TABLE "change_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"space_id" text NOT NULL,
	"number" integer NOT NULL,
	"status" text NOT NULL,
	"subject" text,
	"description" jsonb,
	"created_by" text NOT NULL,
	"contributors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"revision_id" text NOT NULL,
	"revision_initial" text NOT NULL,
	"revision_merged_ancestor" text,
	"revision_merged" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "change_requests_status_check" CHECK (status IN ('draft', 'open', 'archived', 'merged'))
);
--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_revisions_space_idx" ON "content_revisions" USING btree ("space_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "change_requests_space_number_key" ON "change_requests" USING btree ("space_id","number");--> statement-breakpoint
CREATE INDEX "change_requests_space_list_idx" ON "change_requests" USING btree ("space_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "change_requests_org_list_idx" ON "change_requests" USING btree ("organization_id","status","updated_at","id");