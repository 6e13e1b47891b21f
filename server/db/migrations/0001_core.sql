CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"unique_key" text,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "jobs_status_check" CHECK (status IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
-- Parents that no longer exist would fail the new foreign keys: their items move to the top level.
UPDATE "collections" SET "parent_id" = NULL WHERE "parent_id" IS NOT NULL AND "parent_id" NOT IN (SELECT "id" FROM "collections");--> statement-breakpoint
UPDATE "spaces" SET "parent_id" = NULL WHERE "parent_id" IS NOT NULL AND "parent_id" NOT IN (SELECT "id" FROM "collections");--> statement-breakpoint
-- Hand-written: float positions become fractional-indexing keys ('a0', 'a1', … 'aZ', 'b10', …) that keep
-- each parent's existing order of spaces and collections together.
CREATE TEMPORARY TABLE "position_keys" AS
WITH "items" AS (
  SELECT 'c' AS "kind", "id", "organization_id", "parent_id", "position" FROM "collections"
  UNION ALL
  SELECT 's', "id", "organization_id", "parent_id", "position" FROM "spaces"
), "ranked" AS (
  SELECT "kind", "id", (row_number() OVER (PARTITION BY "organization_id", "parent_id" ORDER BY "position", "id") - 1)::int AS "r" FROM "items"
)
SELECT "kind", "id", CASE
  WHEN "r" < 62 THEN 'a' || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "r" + 1, 1)
  WHEN "r" < 3844 THEN 'b' || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "r" / 62 + 1, 1) || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "r" % 62 + 1, 1)
  ELSE 'c' || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "r" / 3844 + 1, 1) || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', ("r" / 62) % 62 + 1, 1) || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "r" % 62 + 1, 1)
END AS "key" FROM "ranked";--> statement-breakpoint
DROP INDEX "collections_parent_idx";--> statement-breakpoint
DROP INDEX "spaces_parent_idx";--> statement-breakpoint
ALTER TABLE "collections" ALTER COLUMN "position" SET DATA TYPE text COLLATE "C" USING '';--> statement-breakpoint
ALTER TABLE "spaces" ALTER COLUMN "position" SET DATA TYPE text COLLATE "C" USING '';--> statement-breakpoint
UPDATE "collections" SET "position" = k."key" FROM "position_keys" k WHERE k."kind" = 'c' AND k."id" = "collections"."id";--> statement-breakpoint
UPDATE "spaces" SET "position" = k."key" FROM "position_keys" k WHERE k."kind" = 's' AND k."id" = "spaces"."id";--> statement-breakpoint
DROP TABLE "position_keys";--> statement-breakpoint
CREATE INDEX "collections_parent_idx" ON "collections" USING btree ("parent_id","position","id");--> statement-breakpoint
CREATE INDEX "spaces_parent_idx" ON "spaces" USING btree ("parent_id","position","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_unique_key_idx" ON "jobs" USING btree ("unique_key") WHERE unique_key IS NOT NULL AND status IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_parent_id_collections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_parent_id_collections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."collections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spaces_deleted_idx" ON "spaces" USING btree ("deleted_at") WHERE deleted_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_default_level_check" CHECK (default_level IN ('admin', 'create', 'review', 'edit', 'comment', 'read'));--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_role_check" CHECK (role IN ('admin', 'create', 'review', 'edit', 'comment', 'read'));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_default_role_check" CHECK (default_role IN ('admin', 'create', 'review', 'edit', 'comment', 'read'));--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_visibility_check" CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'));--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_edit_mode_check" CHECK (edit_mode IN ('live', 'locked'));--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_default_level_check" CHECK (default_level IN ('admin', 'create', 'review', 'edit', 'comment', 'read'));