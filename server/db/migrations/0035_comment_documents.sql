ALTER TABLE "comment_replies" ADD COLUMN "document" jsonb;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "document" jsonb;