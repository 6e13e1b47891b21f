-- The organization search answers a bounded page (issue 52, bench/scale.ts): at most p_limit spaces and
-- p_pages matching pages, in one order of every match (the spaces by their best page, each space's pages
-- best first), where a page's position is its rank and a cursor the last position answered, so the next
-- answer goes on where this one stopped, inside a space too (docs/decisions.md, "The organization search").
-- Before, an answer held every matching page of each of its spaces: a common word in a workspace of
-- 10,000 pages answered 8,780 pages (4.4 MB of sections). It is a function of its own; search_content
-- keeps the search of one space.
CREATE FUNCTION search_organization_content(p_query text, p_organization_id text, p_user_id text, p_offset integer, p_limit integer, p_pages integer, p_rank_full_up_to integer)
RETURNS TABLE (spaces bigint, pages bigint, "position" bigint, space_id text, space_title text, page_id text, title text, description text, path text,
               ancestors jsonb, sections json, query text)
LANGUAGE sql STABLE
SET enable_seqscan = off
AS $$
  -- Every matching page of the live spaces the caller can see (visible_space_ids; p_user_id null: all of
  -- them), ranked by its full text when there are few (p_rank_full_up_to), by its title otherwise.
  WITH q AS (SELECT websearch_to_tsquery('english', p_query) AS q),
       m AS MATERIALIZED (
         SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q.q) AS title_rank
         FROM search_pages p, q
         WHERE p.space_id IN (SELECT visible_space_ids(p_organization_id, p_user_id)) AND p.tsv @@ q.q),
       n AS (SELECT count(*) AS pages, count(DISTINCT m.space_id) AS spaces FROM m),
       ranked AS (
         SELECT m.space_id, m.page_id,
                CASE WHEN n.pages <= p_rank_full_up_to
                  THEN (SELECT ts_rank(v.tsv, q.q) FROM search_pages v WHERE v.space_id = m.space_id AND v.page_id = m.page_id)
                  ELSE m.title_rank END AS rank
         FROM m, n, q),
       best AS (SELECT r.space_id, max(r.rank) AS best FROM ranked r GROUP BY r.space_id),
       -- The one order of every match: the spaces by their best page, each space's pages best first. A
       -- position in it is a page's rank; a cursor is the last position answered. Only the pages up to the
       -- end of this answer are sorted (a top-N sort, not a sort of every match).
       next_pages AS (
         SELECT r.space_id, r.page_id, r.best, p_offset + row_number() OVER (ORDER BY r.best DESC, r.space_id, r.rank DESC, r.page_id) AS position
         FROM (SELECT r.space_id, r.page_id, r.rank, b.best FROM ranked r JOIN best b USING (space_id)
               ORDER BY b.best DESC, r.space_id, r.rank DESC, r.page_id OFFSET p_offset LIMIT p_pages) r),
       -- At most p_limit spaces: the first ones of those pages (a space's pages are next to each other).
       chosen AS (SELECT w.* FROM (SELECT w.*, dense_rank() OVER (ORDER BY w.best DESC, w.space_id) AS space_number FROM next_pages w) w
                  WHERE w.space_number <= p_limit)
  SELECT n.spaces, n.pages, c.position, c.space_id, sp.title, c.page_id, p.title, coalesce(p.description, ''), p.path, p.ancestors,
         (SELECT coalesce(json_agg(json_build_object('id', s.section_id, 'title', s.title, 'body', s.body) ORDER BY s.ordinal), '[]')
          FROM search_sections s, q WHERE s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q.q) IS TRUE),
         (SELECT q.q::text FROM q)
  FROM chosen c CROSS JOIN n
  JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
  JOIN spaces sp ON sp.id = c.space_id
  UNION ALL
  -- No page answered (no match, past the last one, or p_limit 0): one row carries the totals alone.
  SELECT n.spaces, n.pages, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM n WHERE NOT EXISTS (SELECT 1 FROM chosen)
  ORDER BY 3
$$;
--> statement-breakpoint
-- search_content without its organization branch (now search_organization_content), and a space of up to
-- 1,000 pages searched along its own rows rather than through the GIN index of every space's pages (the
-- same matches: bench/scale.ts's space of 100 pages cost more in a workspace of 10,000).
CREATE OR REPLACE FUNCTION search_content(p_query text, p_space_id text, p_organization_id text, p_offset integer, p_limit integer, p_rank_full_up_to integer, p_user_id text)
RETURNS TABLE (total bigint, space_id text, space_title text, page_id text, title text, description text, path text,
               ancestors jsonb, sections json, query text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
  q tsquery := websearch_to_tsquery('english', p_query);
  matches bigint;
  indexed_pages bigint;
  titled bigint;
  -- A space of up to this many pages is searched along its rows (the primary key), each row's vector checked:
  -- ~1.3 µs a page. The GIN index on every space's vectors collects the matches of the whole table first
  -- (under this function's generic plan the planner takes it with the primary key, a BitmapAnd): 1 ms for
  -- a common word in 10,000 pages, growing with the workspaces around the space, not with the space.
  scan_up_to constant integer := 1000;
  scan_space boolean;
  needed_pairs text[] := CASE WHEN p_space_id IS NOT NULL THEN search_query_pairs(q) END;
  -- The page ids of the requested page of results, best first.
  ids text[];
BEGIN
  IF p_space_id IS NOT NULL THEN
    SELECT s.pages INTO indexed_pages FROM search_index_state s WHERE s.space_id = p_space_id;
    scan_space := coalesce(indexed_pages, 0) <= scan_up_to;
    IF numnode(q) = 1 THEN
      -- One word: its text form, read back as a vector, gives the lexeme with any quoting undone.
      SELECT t.pages INTO matches FROM search_terms t
        WHERE t.space_id = p_space_id AND t.lexeme = (tsvector_to_array(q::text::tsvector))[1];
      matches := coalesce(matches, 0);
      IF matches = 0 THEN
        ids := '{}';
      ELSIF matches <= p_rank_full_up_to THEN
        SELECT coalesce(array_agg(c.page_id ORDER BY c.rank DESC, c.page_id), '{}') INTO ids
        FROM (SELECT f.page_id, f.rank
              FROM (SELECT p.page_id, ts_rank(p.tsv, q) AS rank FROM search_pages p
                    WHERE scan_space AND p.space_id = p_space_id AND (p.tsv @@ q) IS TRUE
                    UNION ALL
                    SELECT p.page_id, ts_rank(p.tsv, q) AS rank FROM search_pages p
                    WHERE NOT scan_space AND p.space_id = p_space_id AND p.tsv @@ q) AS f
              ORDER BY f.rank DESC, f.page_id LIMIT p_limit OFFSET p_offset) AS c;
      ELSIF (p_offset::bigint + p_limit) * coalesce(indexed_pages, 0) < matches * matches THEN
        -- A word in a title is in the page: the pages whose title holds it are all matches.
        SELECT count(*) INTO titled FROM search_pages p WHERE p.space_id = p_space_id AND p.title_tsv @@ q;
        SELECT coalesce(array_agg(c.page_id ORDER BY c.rank DESC, c.page_id), '{}') INTO ids
        FROM ((SELECT p.page_id, ts_rank(p.title_tsv, q) AS rank
               FROM search_pages p WHERE p.space_id = p_space_id AND p.title_tsv @@ q
               ORDER BY rank DESC, p.page_id LIMIT p_limit OFFSET p_offset)
              UNION ALL
              -- "IS TRUE" / "IS NOT TRUE" keep the planner on the primary key, in id order, which stops
              -- as soon as the page of results is full (the GIN index would collect every match first).
              (SELECT p.page_id, 0::real
               FROM search_pages p WHERE p.space_id = p_space_id AND (p.tsv @@ q) IS TRUE AND (p.title_tsv @@ q) IS NOT TRUE
               ORDER BY p.page_id
               LIMIT greatest(p_limit - greatest(titled - p_offset, 0), 0) OFFSET greatest(p_offset - titled, 0))) AS c;
      END IF;
    END IF;

    IF ids IS NULL THEN
      WITH m AS MATERIALIZED (
             SELECT p.ctid AS row_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_pages p WHERE needed_pairs IS NULL AND scan_space AND p.space_id = p_space_id AND (p.tsv @@ q) IS TRUE
             UNION ALL
             SELECT p.ctid AS row_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_pages p WHERE needed_pairs IS NULL AND NOT scan_space AND p.space_id = p_space_id AND p.tsv @@ q
             UNION ALL
             SELECT p.ctid AS row_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_page_pairs pp JOIN search_pages p ON p.space_id = p_space_id AND p.page_id = pp.page_id
             WHERE needed_pairs IS NOT NULL AND pp.pairs @> needed_pairs AND (pp.space_id = p_space_id) IS TRUE AND (p.tsv @@ q) IS TRUE),
           n AS (SELECT count(*) AS pages FROM m),
           ranked AS (
             -- The row found above, by its address (the same statement sees the same row there): a
             -- primary key lookup per match cost ~8 µs on PGlite.
             SELECT m.page_id,
                    CASE WHEN n.pages <= p_rank_full_up_to
                      THEN (SELECT ts_rank(v.tsv, q) FROM search_pages v WHERE v.ctid = m.row_id)
                      ELSE m.title_rank END AS rank
             FROM m, n),
           chosen AS (SELECT * FROM ranked ORDER BY rank DESC, page_id LIMIT p_limit OFFSET p_offset)
      SELECT n.pages, coalesce((SELECT array_agg(c.page_id ORDER BY c.rank DESC, c.page_id) FROM chosen c), '{}')
      INTO matches, ids FROM n;
    END IF;

    -- One row per page, its matching sections in a JSON array ([{id, title, body}], in order): a row costs
    -- more to write out and read back than its values (PGlite: 2.3 ms for the ~90 rows of a common word's 20
    -- pages and their sections, of which 0.8 ms finding them; 1.6 ms for 20 rows). "IS TRUE" keeps the
    -- planner off the sections' vectors for finding their rows (primary key instead).
    RETURN QUERY
      SELECT matches, p.space_id, sp.title, p.page_id, p.title, coalesce(p.description, ''), p.path, p.ancestors,
             (SELECT coalesce(json_agg(json_build_object('id', s.section_id, 'title', s.title, 'body', s.body) ORDER BY s.ordinal), '[]')
              FROM search_sections s WHERE s.space_id = p_space_id AND s.page_id = c.page_id AND (s.tsv @@ q) IS TRUE),
             CASE WHEN c.position = 1 THEN q::text END
      FROM unnest(ids) WITH ORDINALITY AS c(page_id, position)
      JOIN search_pages p ON p.space_id = p_space_id AND p.page_id = c.page_id
      JOIN spaces sp ON sp.id = p_space_id
      ORDER BY c.position;
    IF NOT FOUND THEN
      RETURN QUERY SELECT matches, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::json, NULL::text;
    END IF;
  ELSE
    RAISE EXCEPTION 'search_content searches one space: the organization search is search_organization_content (migration 0056)';
  END IF;
END
$$;
