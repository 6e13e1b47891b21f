-- Word pairs: a quoted phrase is found through the pairs of neighbouring words it needs, rather than by
-- checking the word positions of every page holding all its words. `"server response"` was on 224 pages,
-- and the 6,997 pages holding both words were each read and checked for it: 13 ms on PostgreSQL, 21 ms on
-- PGlite. search_page_pairs (migration 0021) keeps each page's pairs under a GIN index; the search
-- function (0022) asks for the pairs a query needs, then checks the phrase on those pages alone.

-- The distinct pairs of lexemes at neighbouring positions of a vector, as 'first second'. A lexeme holds no
-- space, so the text is unambiguous; were it not, pairs would only match more pages, which the phrase
-- check then drops.
CREATE FUNCTION search_word_pairs(v tsvector) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  WITH w AS (SELECT u.lexeme, p FROM unnest(v) AS u CROSS JOIN LATERAL unnest(u.positions) AS p)
  SELECT coalesce(array_agg(DISTINCT a.lexeme || ' ' || b.lexeme), '{}')
  FROM w AS a JOIN w AS b ON b.p = a.p + 1
$$;
--> statement-breakpoint
-- The pairs every page matching `q` must hold: the neighbours of each `<->` of the query. NULL when the
-- query has none, or has an OR, a NOT or a prefix or weight (`'x':*`), where a pair would not be needed by
-- every match. Grouping and distances (`<2>`) end a run of neighbours, which can only ask for fewer pairs.
CREATE FUNCTION search_query_pairs(q tsquery) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
  token text;
  lexeme text;
  previous text;
  adjacent boolean := false;
  pairs text[] := '{}';
BEGIN
  IF q::text !~ '<->' OR q::text ~ '[|!]|'':' THEN
    RETURN NULL;
  END IF;
  FOR token IN SELECT m[1] FROM regexp_matches(q::text, '(''(?:[^'']|'''')*''|<->|<[0-9]+>|[&()])', 'g') AS m LOOP
    IF left(token, 1) = '''' THEN
      -- The quoted lexeme, read back as a vector: any quoting undone as PostgreSQL undoes it.
      lexeme := (tsvector_to_array(token::tsvector))[1];
      IF adjacent AND previous IS NOT NULL THEN
        pairs := pairs || (previous || ' ' || lexeme);
      END IF;
      previous := lexeme;
      adjacent := false;
    ELSIF token = '<->' THEN
      adjacent := true;
    ELSE
      previous := NULL;
      adjacent := false;
    END IF;
  END LOOP;
  RETURN CASE WHEN cardinality(pairs) > 0 THEN pairs END;
END
$$;
