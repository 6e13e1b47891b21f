ALTER TABLE "openapi_spec_versions" ADD COLUMN "source_url" text;--> statement-breakpoint
-- Versions processed before this column: the best knowledge of their source is the specification's current one.
UPDATE "openapi_spec_versions" AS v SET "source_url" = s."source_url" FROM "openapi_specs" AS s WHERE s."id" = v."spec_id";
