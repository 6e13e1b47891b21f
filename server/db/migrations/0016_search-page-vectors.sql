-- The index is rebuilt by the next search of each space (search-index.ts): pages gain a whole-page vector.
DELETE FROM "search_index_state";--> statement-breakpoint
DELETE FROM "search_pages";--> statement-breakpoint
DROP INDEX "search_sections_tsv_idx";--> statement-breakpoint
ALTER TABLE "search_pages" ADD COLUMN "tsv" "tsvector" NOT NULL;--> statement-breakpoint
ALTER TABLE "search_pages" ADD COLUMN "title_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_pages_tsv_idx" ON "search_pages" USING gin ("tsv");