CREATE TABLE "content_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"space_id" text,
	"collection_id" text,
	"site_id" text,
	"user_id" text,
	"team_id" text,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "content_grants_role_check" CHECK (role IN ('admin', 'create', 'review', 'edit', 'comment', 'read')),
	CONSTRAINT "content_grants_one_resource_check" CHECK (num_nonnulls(space_id, collection_id, site_id) = 1),
	CONSTRAINT "content_grants_one_principal_check" CHECK (num_nonnulls(user_id, team_id) = 1)
);
--> statement-breakpoint
ALTER TABLE "collections" DROP CONSTRAINT "collections_default_level_check";--> statement-breakpoint
ALTER TABLE "spaces" DROP CONSTRAINT "spaces_default_level_check";--> statement-breakpoint
ALTER TABLE "collections" ALTER COLUMN "default_level" SET DEFAULT 'inherit';--> statement-breakpoint
ALTER TABLE "spaces" ALTER COLUMN "default_level" SET DEFAULT 'inherit';--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "space_id" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "collection_id" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_organization_id_user_id_members_organization_id_user_id_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."members"("organization_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_space_user_idx" ON "content_grants" USING btree ("space_id","user_id") WHERE space_id IS NOT NULL AND user_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_space_team_idx" ON "content_grants" USING btree ("space_id","team_id") WHERE space_id IS NOT NULL AND team_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_collection_user_idx" ON "content_grants" USING btree ("collection_id","user_id") WHERE collection_id IS NOT NULL AND user_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_collection_team_idx" ON "content_grants" USING btree ("collection_id","team_id") WHERE collection_id IS NOT NULL AND team_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_site_user_idx" ON "content_grants" USING btree ("site_id","user_id") WHERE site_id IS NOT NULL AND user_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_site_team_idx" ON "content_grants" USING btree ("site_id","team_id") WHERE site_id IS NOT NULL AND team_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "content_grants_member_idx" ON "content_grants" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "content_grants_team_idx" ON "content_grants" USING btree ("team_id");--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_default_level_check" CHECK (default_level IN ('admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit'));--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_default_level_check" CHECK (default_level IN ('admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit'));--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_level_check" CHECK (level IN ('admin', 'create', 'review', 'edit', 'comment', 'read'));--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_one_target_check" CHECK (num_nonnulls(space_id, collection_id) <= 1);
--> statement-breakpoint
-- What `null` used to mean (the organization role, raised by the levels around) is `inherit` now; `null`
-- means nothing (only those granted reach the content). Existing content keeps its meaning.
UPDATE collections SET default_level = 'inherit' WHERE default_level IS NULL;
--> statement-breakpoint
UPDATE spaces SET default_level = 'inherit' WHERE default_level IS NULL;
--> statement-breakpoint
DROP FUNCTION IF EXISTS collection_chain_levels(text);
--> statement-breakpoint
-- The access rule of docs/permissions.md in SQL, for the lists (which filter and page in the database);
-- server/auth/roles.ts `contentRole` is the same rule for one resource read with its grant. The strength
-- of a role (0: none) and back.
CREATE OR REPLACE FUNCTION role_rank(r text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE r WHEN 'read' THEN 1 WHEN 'comment' THEN 2 WHEN 'edit' THEN 3 WHEN 'review' THEN 4 WHEN 'create' THEN 5 WHEN 'admin' THEN 6 ELSE 0 END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rank_role(n integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE n WHEN 1 THEN 'read' WHEN 2 THEN 'comment' WHEN 3 THEN 'edit' WHEN 4 THEN 'review' WHEN 5 THEN 'create' WHEN 6 THEN 'admin' END
$$;
--> statement-breakpoint
-- The ids of the collection `start` and of every collection enclosing it, innermost first.
CREATE OR REPLACE FUNCTION collection_chain_ids(start text) RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
  result text[];
BEGIN
  IF start IS NULL THEN
    RETURN NULL;
  END IF;
  WITH RECURSIVE chain(id, parent_id, depth) AS (
    SELECT c.id, c.parent_id, 0 FROM collections c WHERE c.id = start
    UNION ALL
    SELECT c.id, c.parent_id, chain.depth + 1 FROM collections c JOIN chain ON c.id = chain.parent_id WHERE chain.depth < 64
  )
  SELECT array_agg(chain.id ORDER BY chain.depth) INTO result FROM chain;
  RETURN result;
END;
$$;
--> statement-breakpoint
-- What content inside the collection `start` inherits, for the user `uid`: {level, granted}. `level` is the
-- first default level up the chain that is not `inherit` (a role, or null: nothing), or `inherit` when
-- every collection up to the top inherits (then: the organization role); `granted` is the strongest grant
-- of the user or of their teams on any collection of the chain. Null when `start` is null. PL/pgSQL
-- caches the plans of its queries per connection.
CREATE OR REPLACE FUNCTION collection_chain_access(start text, uid text) RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
  ids text[];
  levels text[];
  resolved text := 'inherit';
  granted text;
BEGIN
  IF start IS NULL THEN
    RETURN NULL;
  END IF;
  WITH RECURSIVE chain(id, parent_id, level, depth) AS (
    SELECT c.id, c.parent_id, c.default_level, 0 FROM collections c WHERE c.id = start
    UNION ALL
    SELECT c.id, c.parent_id, c.default_level, chain.depth + 1 FROM collections c JOIN chain ON c.id = chain.parent_id WHERE chain.depth < 64
  )
  SELECT array_agg(chain.id ORDER BY chain.depth), array_agg(chain.level ORDER BY chain.depth) INTO ids, levels FROM chain;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  FOR i IN 1 .. array_length(levels, 1) LOOP
    IF levels[i] IS DISTINCT FROM 'inherit' THEN
      resolved := levels[i];
      EXIT;
    END IF;
  END LOOP;
  IF uid IS NOT NULL THEN
    SELECT rank_role(max(role_rank(g.role))) INTO granted FROM content_grants g
    WHERE g.collection_id = ANY (ids)
      AND (g.user_id = uid OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = uid));
  END IF;
  RETURN ARRAY[resolved, granted];
END;
$$;
--> statement-breakpoint
-- The caller's role on content: nothing for a non-member; admin for an organization admin; otherwise the
-- strongest of the level the content gives members (`default_level`, `inherit` resolved through `chain`
-- or to the organization role; none for a guest), the caller's own and teams' grant on it (`granted`) and
-- on the collections around it (`chain[2]`). `chain` is collection_chain_access of its parent, null
-- when it inherits from no collection.
CREATE OR REPLACE FUNCTION content_role(is_member boolean, org_role text, default_level text, granted text, chain text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN is_member IS NOT TRUE THEN NULL
    WHEN org_role = 'admin' THEN 'admin'
    ELSE rank_role(NULLIF(GREATEST(
      role_rank(CASE
        WHEN org_role IS NULL THEN NULL
        WHEN default_level IS DISTINCT FROM 'inherit' THEN default_level
        WHEN chain IS NULL THEN org_role
        WHEN chain[1] IS DISTINCT FROM 'inherit' THEN chain[1]
        ELSE org_role
      END),
      role_rank(granted),
      role_rank(chain[2])), 0))
  END
$$;
--> statement-breakpoint
-- The strongest grant of the user `uid` or of their teams on a space (the same for collections and sites
-- is written inline where needed).
CREATE OR REPLACE FUNCTION space_granted(p_space_id text, p_organization_id text, uid text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rank_role(max(role_rank(g.role))) FROM content_grants g
  WHERE g.space_id = p_space_id
    AND (g.user_id = uid OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = p_organization_id AND tm.user_id = uid))
$$;
--> statement-breakpoint
-- The role of the user `uid` on a space row's content, by content_role.
CREATE OR REPLACE FUNCTION space_role_of(s spaces, uid text, is_member boolean, org_role text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN is_member IS NOT TRUE THEN NULL
    WHEN org_role = 'admin' THEN 'admin'
    ELSE content_role(true, org_role, s.default_level, space_granted(s.id, s.organization_id, uid),
                      CASE WHEN s.visibility = 'in-collection' THEN collection_chain_access(s.parent_id, uid) END)
  END
$$;
--> statement-breakpoint
-- The live spaces of an organization the user `uid` can see (every one when `uid` is null: the caller
-- is an admin, or the organization's own search).
CREATE OR REPLACE FUNCTION visible_space_ids(p_organization_id text, uid text) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT s.id FROM spaces s
  LEFT JOIN members m ON m.organization_id = s.organization_id AND m.user_id = uid AND NOT m.disabled
  WHERE s.organization_id = p_organization_id AND s.deleted_at IS NULL
    AND (uid IS NULL OR space_role_of(s, uid, m.user_id IS NOT NULL, m.role) IS NOT NULL)
$$;
--> statement-breakpoint
-- The organization search sees only the spaces its caller can (p_user_id; null: all of them).
DROP FUNCTION search_content(text, text, text, integer, integer, integer);
--> statement-breakpoint
CREATE FUNCTION search_content(p_query text, p_space_id text, p_organization_id text, p_offset integer, p_limit integer, p_rank_full_up_to integer, p_user_id text)
RETURNS TABLE (total bigint, space_id text, space_title text, page_id text, title text, path text, ancestors jsonb,
               sections json, query text)
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
  needed_pairs text[] := CASE WHEN p_space_id IS NOT NULL THEN search_query_pairs(q) END;
  -- The page ids of the requested page of results, best first.
  ids text[];
BEGIN
  IF p_space_id IS NOT NULL THEN
    IF numnode(q) = 1 THEN
      -- One word: its text form, read back as a vector, gives the lexeme with any quoting undone.
      SELECT t.pages INTO matches FROM search_terms t
        WHERE t.space_id = p_space_id AND t.lexeme = (tsvector_to_array(q::text::tsvector))[1];
      matches := coalesce(matches, 0);
      SELECT s.pages INTO indexed_pages FROM search_index_state s WHERE s.space_id = p_space_id;
      IF matches = 0 THEN
        ids := '{}';
      ELSIF matches <= p_rank_full_up_to THEN
        SELECT coalesce(array_agg(c.page_id ORDER BY c.rank DESC, c.page_id), '{}') INTO ids
        FROM (SELECT p.page_id, ts_rank(p.tsv, q) AS rank FROM search_pages p
              WHERE p.space_id = p_space_id AND p.tsv @@ q
              ORDER BY rank DESC, p.page_id LIMIT p_limit OFFSET p_offset) AS c;
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
             FROM search_pages p WHERE needed_pairs IS NULL AND p.space_id = p_space_id AND p.tsv @@ q
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
      SELECT matches, p.space_id, sp.title, p.page_id, p.title, p.path, p.ancestors,
             (SELECT coalesce(json_agg(json_build_object('id', s.section_id, 'title', s.title, 'body', s.body) ORDER BY s.ordinal), '[]')
              FROM search_sections s WHERE s.space_id = p_space_id AND s.page_id = c.page_id AND (s.tsv @@ q) IS TRUE),
             CASE WHEN c.position = 1 THEN q::text END
      FROM unnest(ids) WITH ORDINALITY AS c(page_id, position)
      JOIN search_pages p ON p.space_id = p_space_id AND p.page_id = c.page_id
      JOIN spaces sp ON sp.id = p_space_id
      ORDER BY c.position;
    IF NOT FOUND THEN
      RETURN QUERY SELECT matches, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::json, NULL::text;
    END IF;
  ELSE
    -- The organization's live spaces the caller can see (visible_space_ids) stay in the database: their
    -- number does not weigh on the server.
    RETURN QUERY
      WITH m AS MATERIALIZED (
             SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q) AS title_rank
             FROM search_pages p
             WHERE p.space_id IN (SELECT visible_space_ids(p_organization_id, p_user_id)) AND p.tsv @@ q),
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
             (SELECT coalesce(json_agg(json_build_object('id', s.section_id, 'title', s.title, 'body', s.body) ORDER BY s.ordinal), '[]')
              FROM search_sections s WHERE s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q) IS TRUE), q::text
      FROM chosen c CROSS JOIN n
      JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
      JOIN spaces sp ON sp.id = c.space_id
      ORDER BY c.item_rank DESC, c.space_id, c.rank DESC, c.page_id;
    IF NOT FOUND THEN
      RETURN QUERY SELECT count(DISTINCT p.space_id), NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::json, NULL::text
        FROM search_pages p
        WHERE p.space_id IN (SELECT visible_space_ids(p_organization_id, p_user_id)) AND p.tsv @@ q;
    END IF;
  END IF;
END
$$;
