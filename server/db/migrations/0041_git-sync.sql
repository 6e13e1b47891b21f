ALTER TABLE "spaces" ADD COLUMN "git_sync" jsonb;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD COLUMN "git" jsonb;