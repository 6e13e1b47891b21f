CREATE TABLE "change_request_pdfs" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL,
	"change_request_id" text NOT NULL,
	"revision_id" text NOT NULL,
	"page_id" text,
	"only" boolean NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "change_request_pdfs" ADD CONSTRAINT "change_request_pdfs_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_pdfs" ADD CONSTRAINT "change_request_pdfs_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_request_pdfs_expires_idx" ON "change_request_pdfs" USING btree ("expires_at");