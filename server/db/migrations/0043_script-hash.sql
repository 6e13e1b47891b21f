ALTER TABLE "integration_scripts" ADD COLUMN "script_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Scripts published before the column: their hash as publishIntegration computes it (SHA-256, base64).
UPDATE "integration_scripts" SET "script_hash" = encode(sha256(convert_to("script", 'UTF8')), 'base64');
