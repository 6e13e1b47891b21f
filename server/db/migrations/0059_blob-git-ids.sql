ALTER TABLE "blobs" ADD COLUMN "git_oid" text;--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_git_oid_check" CHECK ("blobs"."git_oid" ~ '^[0-9a-f]{40}$');