ALTER TABLE "translations" ADD COLUMN "latest_run" jsonb;--> statement-breakpoint
ALTER TABLE "translations" ADD COLUMN "source_hashes" jsonb;