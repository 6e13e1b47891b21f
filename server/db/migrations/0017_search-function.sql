-- The search query (server/search/search.ts) as a function, so that each connection plans it once: sent as
-- a statement, PostgreSQL planned it on every request (~2.4 ms of a no-match search's ~3 ms in the
-- database, measured with log_min_duration_statement), and the transaction around it, only there to
-- turn sequential scans off, cost three more round trips. PL/pgSQL keeps the plan of each statement for
-- the session; the SET clauses hold while the function runs:
--   plan_cache_mode  plan once for any query text (a custom plan would be made again on every call);
--   enable_seqscan   the GIN bitmap answers a word on most pages without reading any page vector, where
--                    the planner would read every row of the space (count over 9,971 pages: 100+ ms by
--                    the scan, 5-17 ms by the bitmap, PGlite).
--
-- Rows: the matching items (pages of the space, or spaces of the organization) at positions
-- [p_offset, p_offset + p_limit) of the ranking, one row per matching section of each page (section_id
-- NULL when none matches), each with the total number of items. Past the end or with no match, one row
-- carrying the total alone (page_id NULL).
--
-- Ranking: when at most p_rank_full_up_to pages match, by each page's full text (ts_rank over its vector,
-- read again by primary key); beyond, by the page title's rank, then page id. The order is total, so
-- cursors (positions) stay consistent. Only the sections of the returned pages get an excerpt.
CREATE FUNCTION search_content(p_query text, p_space_id text, p_organization_id text, p_offset integer, p_limit integer, p_rank_full_up_to integer)
RETURNS TABLE (total bigint, space_id text, space_title text, page_id text, title text, path text, ancestors jsonb,
               section_id text, section_title text, has_body boolean, headline text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
  q tsquery := websearch_to_tsquery('english', p_query);
BEGIN
  IF p_space_id IS NOT NULL THEN
    RETURN QUERY
      WITH m AS MATERIALIZED (
             SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_pages p WHERE p.space_id = p_space_id AND p.tsv @@ q),
           n AS (SELECT count(*) AS pages FROM m),
           ranked AS (
             SELECT m.space_id, m.page_id,
                    CASE WHEN n.pages <= p_rank_full_up_to
                      THEN (SELECT ts_rank(v.tsv, q) FROM search_pages v WHERE v.space_id = m.space_id AND v.page_id = m.page_id)
                      ELSE m.title_rank END AS rank
             FROM m, n),
           chosen AS (SELECT * FROM ranked ORDER BY rank DESC, page_id LIMIT p_limit OFFSET p_offset)
      SELECT n.pages, c.space_id, sp.title, c.page_id, p.title, p.path, p.ancestors,
             s.section_id, s.title, s.body ~ '\S',
             ts_headline('english', s.body, q, 'MaxFragments=1, MaxWords=30, MinWords=10')
      FROM chosen c CROSS JOIN n
      JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
      JOIN spaces sp ON sp.id = c.space_id
      -- "IS TRUE" keeps the planner off the sections' vectors for finding the rows (primary key instead).
      LEFT JOIN search_sections s ON s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q) IS TRUE
      ORDER BY c.rank DESC, c.page_id, s.ordinal;
    IF NOT FOUND THEN
      RETURN QUERY SELECT count(*), NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text, NULL::boolean, NULL::text
        FROM search_pages p WHERE p.space_id = p_space_id AND p.tsv @@ q;
    END IF;
  ELSE
    -- The organization's live spaces stay in the database: their number does not weigh on the server.
    RETURN QUERY
      WITH m AS MATERIALIZED (
             SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_pages p
             WHERE p.space_id IN (SELECT id FROM spaces WHERE organization_id = p_organization_id AND deleted_at IS NULL) AND p.tsv @@ q),
           n AS (SELECT count(*) AS pages, count(DISTINCT m.space_id) AS spaces FROM m),
           ranked AS (
             SELECT m.space_id, m.page_id,
                    CASE WHEN n.pages <= p_rank_full_up_to
                      THEN (SELECT ts_rank(v.tsv, q) FROM search_pages v WHERE v.space_id = m.space_id AND v.page_id = m.page_id)
                      ELSE m.title_rank END AS rank
             FROM m, n),
           chosen_spaces AS (SELECT space_id, max(rank) AS item_rank FROM ranked GROUP BY space_id ORDER BY item_rank DESC, space_id LIMIT p_limit OFFSET p_offset),
           chosen AS (SELECT r.*, cs.item_rank FROM ranked r JOIN chosen_spaces cs USING (space_id))
      SELECT n.spaces, c.space_id, sp.title, c.page_id, p.title, p.path, p.ancestors,
             s.section_id, s.title, s.body ~ '\S',
             ts_headline('english', s.body, q, 'MaxFragments=1, MaxWords=30, MinWords=10')
      FROM chosen c CROSS JOIN n
      JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
      JOIN spaces sp ON sp.id = c.space_id
      LEFT JOIN search_sections s ON s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q) IS TRUE
      ORDER BY c.item_rank DESC, c.space_id, c.rank DESC, c.page_id, s.ordinal;
    IF NOT FOUND THEN
      RETURN QUERY SELECT count(DISTINCT p.space_id), NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text, NULL::boolean, NULL::text
        FROM search_pages p
        WHERE p.space_id IN (SELECT id FROM spaces WHERE organization_id = p_organization_id AND deleted_at IS NULL) AND p.tsv @@ q;
    END IF;
  END IF;
END
$$;
