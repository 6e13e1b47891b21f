ALTER TABLE "translations" DROP CONSTRAINT "translations_status_check";--> statement-breakpoint
ALTER TABLE "site_spaces" ADD COLUMN "customization" jsonb;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_status_check" CHECK (status IN ('pending', 'running', 'completed', 'failed'));