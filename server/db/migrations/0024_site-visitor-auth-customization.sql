ALTER TABLE "sites" ADD COLUMN "visitor_auth_key" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "visitor_auth_fallback_url" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "customization" jsonb;