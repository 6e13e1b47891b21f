-- The organization search stops once its answer is full when a query may match many pages (issue 52,
-- bench/scale.ts: a common word in 100,000 pages cost 12-33x its time in 100 pages, all of it collecting,
-- ranking and counting every match; docs/decisions.md, "The organization search stops early").
--
-- Whether a query may match more than p_rank_full_up_to pages is told by the word counts the index keeps
-- (search_terms, read by word through search_terms_lexeme_idx): at most as many pages match as hold its
-- least common word in the caller's spaces. Counting the matches themselves cost what the bound could not
-- afford: 48 ms to collect 87,800 of them from the GIN index, or a walk of every page when they are few.
--
-- When they may not, nothing changes: every match is found and ranked by its full text
-- (search_organization_ranked, the function of migration 0056 taking the visible spaces as an argument).
-- When they may, a page ranks by its title, as it did above that many matches: the spaces whose pages'
-- titles hold the query come first (by their best title), then every other matching space in id order; in
-- a space, its titled pages first (best first), then its other matches in id order. That order is walked
-- from its start, a space at a time along the primary key, and the walk stops once the answer is full and
-- one more match is seen. The answer says whether more matches follow (`more`) instead of counting the
-- matching pages; on the walk, `spaces` counts the visible spaces holding every word of the query: exact
-- for a query of one word; for several, a space holding them on different pages only is counted too. The
-- walk is taken for queries of words joined by AND (websearch's plain words); a query with OR, a negation
-- or a phrase is ranked as before.
CREATE INDEX "search_terms_lexeme_idx" ON "search_terms" USING btree ("lexeme","space_id","pages");
--> statement-breakpoint
DROP FUNCTION search_organization_content(text, text, text, integer, integer, integer, integer);
--> statement-breakpoint
CREATE FUNCTION search_organization_ranked(p_query text, p_visible text[], p_offset integer, p_limit integer, p_pages integer, p_rank_full_up_to integer)
RETURNS TABLE (spaces bigint, more boolean, "position" bigint, space_id text, space_title text, page_id text, title text, description text, path text,
               ancestors jsonb, sections json, query text)
LANGUAGE sql STABLE
SET enable_seqscan = off
-- The plans' costs include enable_seqscan's penalty for the scans they never run, which passes
-- jit_above_cost: on a connection with JIT on, a call compiled for half a second.
SET jit = off
AS $$
  -- Every matching page of the visible spaces, ranked by its full text when there are few
  -- (p_rank_full_up_to), by its title otherwise.
  WITH q AS (SELECT websearch_to_tsquery('english', p_query) AS q),
       m AS MATERIALIZED (
         SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q.q) AS title_rank
         FROM search_pages p, q
         -- A semi-join, which the planner takes with the GIN index (with "= ANY" it walked every visible page).
         WHERE p.space_id IN (SELECT unnest(p_visible)) AND p.tsv @@ q.q),
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
                  WHERE w.space_number <= p_limit),
       last AS (SELECT max(c.position) AS position FROM chosen c)
  SELECT n.spaces, last.position < n.pages, c.position, c.space_id, sp.title, c.page_id, p.title, coalesce(p.description, ''), p.path, p.ancestors,
         (SELECT coalesce(json_agg(json_build_object('id', s.section_id, 'title', s.title, 'body', s.body) ORDER BY s.ordinal), '[]')
          FROM search_sections s, q WHERE s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q.q) IS TRUE),
         (SELECT q.q::text FROM q)
  FROM chosen c CROSS JOIN n CROSS JOIN last
  JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
  JOIN spaces sp ON sp.id = c.space_id
  UNION ALL
  -- No page answered (no match, past the last one, or p_limit 0): one row carries the totals alone.
  SELECT n.spaces, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM n WHERE NOT EXISTS (SELECT 1 FROM chosen)
  ORDER BY 3
$$;
--> statement-breakpoint
CREATE FUNCTION search_organization_content(p_query text, p_organization_id text, p_user_id text, p_offset integer, p_limit integer, p_pages integer, p_rank_full_up_to integer)
RETURNS TABLE (spaces bigint, more boolean, "position" bigint, space_id text, space_title text, page_id text, title text, description text, path text,
               ancestors jsonb, sections json, query text)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  q tsquery := websearch_to_tsquery('english', p_query);
  -- The query's words as written in it ('deploy', quoted), and as search_terms keeps them.
  quoted text[] := ARRAY(SELECT DISTINCT m[1] FROM regexp_matches(q::text, '(''(?:[^'']|'''')*'')', 'g') AS m);
  words text[] := ARRAY(SELECT (tsvector_to_array(w::tsvector))[1] FROM unnest(quoted) AS w);
  -- Words joined by AND alone: nothing but `&` between them.
  conjunction boolean := cardinality(quoted) > 0 AND regexp_replace(q::text, '''(?:[^'']|'''')*''', '', 'g') ~ '^[ &]*$';
  -- A title holding any word of the query may rank above the others (an AND of three words ranks a title
  -- holding two of them); a title ranking no higher than one holding none (1e-20, ts_rank's floor) ties with them.
  any_word tsquery := CASE WHEN cardinality(quoted) > 0 THEN array_to_string(quoted, ' | ')::tsquery END;
  visible text[] := ARRAY(SELECT visible_space_ids(p_organization_id, p_user_id));
  -- At most this many pages can match: the fewest holding one of the words.
  may_match bigint := 0;
  holding text[] := '{}';
  sp record;
  skip_here integer;
  want integer := p_pages;
  taken_spaces integer := 0;
  walked bigint := 0;
  full_answer boolean := false;
  has_more boolean := false;
  ids text[];
  n integer;
  take integer;
  answer_spaces text[] := '{}';
  answer_pages text[] := '{}';
  answer_positions bigint[] := '{}';
BEGIN
  IF conjunction THEN
    WITH held AS (
      SELECT t.space_id, t.lexeme, t.pages FROM search_terms t
      WHERE t.lexeme = ANY (words) AND t.pages > 0 AND t.space_id IN (SELECT unnest(visible)))
    SELECT (SELECT CASE WHEN count(*) = cardinality(words) THEN min(w.pages) ELSE 0 END
            FROM (SELECT sum(h.pages) AS pages FROM held h GROUP BY h.lexeme) AS w),
           ARRAY(SELECT h.space_id FROM held h GROUP BY h.space_id HAVING count(*) = cardinality(words))
    INTO may_match, holding;
  END IF;
  IF NOT conjunction OR may_match <= p_rank_full_up_to THEN
    RETURN QUERY SELECT * FROM search_organization_ranked(p_query, visible, p_offset, p_limit, p_pages, p_rank_full_up_to);
    RETURN;
  END IF;

  FOR sp IN
    SELECT h.id, b.best
    FROM unnest(holding) AS h(id)
    LEFT JOIN (SELECT p.space_id, max(ts_rank(p.title_tsv, q)) AS best FROM search_pages p
               WHERE p.space_id IN (SELECT unnest(holding)) AND p.title_tsv @@ any_word AND p.tsv @@ q GROUP BY p.space_id) b
      ON b.space_id = h.id AND b.best > 1e-20::real
    ORDER BY b.best DESC NULLS LAST, h.id
  LOOP
    -- The space's matches in its order, as many as this answer may still skip and take, and one more.
    skip_here := greatest(p_offset - walked, 0);
    ids := ARRAY(
      SELECT x.page_id FROM (
        SELECT t.page_id, 0 AS part, t.rank FROM (
          SELECT p.page_id, ts_rank(p.title_tsv, q) AS rank FROM search_pages p
          WHERE sp.best IS NOT NULL AND p.space_id = sp.id AND p.title_tsv @@ any_word AND p.tsv @@ q) t
        WHERE t.rank > 1e-20::real
        UNION ALL
        -- "IS TRUE" keeps the planner on the primary key, in id order, which stops at the LIMIT.
        (SELECT p.page_id, 1, 0::real FROM search_pages p
         WHERE p.space_id = sp.id AND (p.tsv @@ q) IS TRUE
           AND NOT (sp.best IS NOT NULL AND (p.title_tsv @@ any_word) IS TRUE AND ts_rank(p.title_tsv, q) > 1e-20::real)
         ORDER BY p.page_id LIMIT skip_here + want + 1)) x
      ORDER BY x.part, x.rank DESC, x.page_id LIMIT skip_here + want + 1);
    n := cardinality(ids);
    CONTINUE WHEN n = 0;
    -- A match after a full answer: more follow.
    IF full_answer OR taken_spaces = p_limit THEN
      has_more := true;
      EXIT;
    END IF;
    IF n <= skip_here THEN
      walked := walked + n;
      CONTINUE;
    END IF;
    take := least(n - skip_here, want);
    answer_spaces := answer_spaces || array_fill(sp.id, ARRAY[take]);
    answer_pages := answer_pages || ids[skip_here + 1 : skip_here + take];
    answer_positions := answer_positions || ARRAY(SELECT walked + skip_here + g FROM generate_series(1, take) AS g);
    walked := walked + skip_here + take;
    taken_spaces := taken_spaces + 1;
    want := want - take;
    IF n > skip_here + take THEN
      has_more := true;
      EXIT;
    END IF;
    full_answer := want = 0;
  END LOOP;

  RETURN QUERY
    SELECT cardinality(holding)::bigint, has_more, c.position, c.space_id, s.title, c.page_id, p.title, coalesce(p.description, ''), p.path, p.ancestors,
           (SELECT coalesce(json_agg(json_build_object('id', x.section_id, 'title', x.title, 'body', x.body) ORDER BY x.ordinal), '[]')
            FROM search_sections x WHERE x.space_id = c.space_id AND x.page_id = c.page_id AND (x.tsv @@ q) IS TRUE),
           CASE WHEN c.position = p_offset + 1 THEN q::text END
    FROM unnest(answer_spaces, answer_pages, answer_positions) AS c(space_id, page_id, position)
    JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
    JOIN spaces s ON s.id = c.space_id
    ORDER BY c.position;
  IF NOT FOUND THEN
    RETURN QUERY SELECT cardinality(holding)::bigint, has_more, NULL::bigint, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::json, NULL::text;
  END IF;
END
$$;
