-- The default levels (non-null) of a collection and of every collection enclosing it, for the access
-- layer (server/auth/grants.ts). PL/pgSQL caches the plan of its query per connection, so the recursive
-- query is planned once rather than with every request that reads a resource's role.
CREATE OR REPLACE FUNCTION collection_chain_levels(start text) RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
  result text[];
BEGIN
  IF start IS NULL THEN
    RETURN NULL;
  END IF;
  WITH RECURSIVE chain(id, parent_id, level, depth) AS (
    SELECT c.id, c.parent_id, c.default_level, 0 FROM collections c WHERE c.id = start
    UNION ALL
    SELECT c.id, c.parent_id, c.default_level, chain.depth + 1
    FROM collections c JOIN chain ON c.id = chain.parent_id
    WHERE chain.depth < 64
  )
  SELECT array_agg(chain.level) INTO result FROM chain WHERE chain.level IS NOT NULL;
  RETURN result;
END;
$$;
