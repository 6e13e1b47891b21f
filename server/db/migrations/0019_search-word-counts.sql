-- The word counts (search_terms, migration 0018) and page totals of what is indexed already; the catch-up
-- (server/search/search-index.ts) keeps them from now on, and the search function reads them (0022).
INSERT INTO search_terms (space_id, lexeme, pages)
  SELECT p.space_id, w.lexeme, count(*) FROM search_pages p CROSS JOIN LATERAL unnest(tsvector_to_array(p.tsv)) AS w(lexeme)
  GROUP BY p.space_id, w.lexeme;
--> statement-breakpoint
UPDATE search_index_state s SET pages = (SELECT count(*) FROM search_pages p WHERE p.space_id = s.space_id);
