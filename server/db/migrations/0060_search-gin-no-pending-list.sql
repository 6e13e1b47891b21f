-- The search index's GIN indexes without a pending list: writes index their pages at commit, a few at a
-- time, and pending entries would be read by every search until a vacuum merged them. Altered in place
-- (not rebuilt); the entries already pending are merged now.
ALTER INDEX "search_page_pairs_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "search_pages_tsv_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "search_pages_title_tsv_idx" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('search_page_pairs_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('search_pages_tsv_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('search_pages_title_tsv_idx'::regclass);
