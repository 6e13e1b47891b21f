// The spaces a member or a team reaches, as SQL over a space row `s`, for the counts of the member and
// team lists. The rule is docs/permissions.md's (SQL `space_role_of`, migration 0037), taken apart so that a
// list counts set-wise: a member below admin sees a space when its levels admit every member with a role
// (the same for all of them: counted once per statement), or when a grant of theirs or of their teams reaches
// it (on the space, or on a collection around an in-collection space: found from the grants, a few rows,
// rather than by computing a role on every space of the organization for every row of the list); a long
// page looks each row's reached spaces up in the viewer's sight, computed once (viewerSightTable). And the
// role on each space of a list's page (spaceRoleOnRows), with what it looks up read once per statement.
import { sql, type SQL } from 'drizzle-orm';
import { unlessAdmin } from './granted-organization-role.js';

/**
 * The ids of the organization's live spaces whose levels alone give a member with an organization role below
 * admin some role (`content_role` with no grant, for any such role: the role it falls back to is never none),
 * as a query the database runs once per statement. The chains of collections around the in-collection
 * spaces are worked out in one query (collectionChains), not once per space nor once per collection: at 1,000
 * spaces in 100 collections, computing them per space was most of `list members` (two scans of every space:
 * 70 of its 88 ms, bench/scale.ts), once per collection (collection_chain_access) still ~2 ms of each scan.
 */
function admittedSpaceIds(organizationId: SQL): SQL {
  return sql`(SELECT a.id FROM spaces a LEFT JOIN ${collectionChains(organizationId, null)} ch ON a.visibility = 'in-collection' AND ch.id = a.parent_id
    WHERE a.organization_id = ${organizationId} AND a.deleted_at IS NULL
      AND content_role(true, 'read', a.default_level, NULL, CASE WHEN ch.id IS NOT NULL THEN ARRAY[ch.level, ch.granted] END) IS NOT NULL)`;
}

/**
 * collection_chain_access(id, user) of every collection of the organization, as rows (id, level, granted),
 * in one query: each collection walked up (64 parents at most, as the function does), its level the first
 * one up the chain that is not `inherit` (`inherit` when there is none), `granted` the strongest of the
 * `grants` (rows (space_id, collection_id, role); null: none, the function with no user) on the chain.
 * collection_chain_access is PL/pgSQL, ~0.15 ms a call: once per collection or per row, it was most of
 * the lists' statements at 1,000 spaces (bench/scale.ts).
 */
function collectionChains(organizationId: SQL, grants: SQL | null): SQL {
  // The grants read once (a materialized CTE), not once per collection.
  const granted = grants ? sql`(SELECT rank_role(max(role_rank(cg.role))) FROM cg WHERE cg.collection_id = ANY (w.ids))` : sql`NULL::text`;
  const grantsCte = grants ? sql`cg AS MATERIALIZED (SELECT ug.collection_id, ug.role FROM ${grants} ug WHERE ug.collection_id IS NOT NULL),` : sql``;
  return sql`(WITH RECURSIVE ${grantsCte} up(start, id, parent_id, level, depth) AS (
      SELECT c.id, c.id, c.parent_id, c.default_level, 0 FROM collections c WHERE c.organization_id = ${organizationId}
      UNION ALL
      SELECT up.start, c.id, c.parent_id, c.default_level, up.depth + 1 FROM up JOIN collections c ON c.id = up.parent_id WHERE up.depth < 64),
    walked AS (SELECT up.start,
        CASE WHEN count(*) FILTER (WHERE up.level IS DISTINCT FROM 'inherit') = 0 THEN 'inherit'
          ELSE (array_agg(up.level ORDER BY up.depth) FILTER (WHERE up.level IS DISTINCT FROM 'inherit'))[1] END AS level,
        array_agg(up.id) AS ids
      FROM up GROUP BY up.start)
    SELECT w.start AS id, w.level, ${granted} AS granted FROM walked w)`;
}

/**
 * The principal's grants (`grants`: a subquery of rows (space_id, collection_id)) on collections, and every
 * collection inside them, down to the depth `collection_chain_ids` looks up (64 parents).
 */
function grantedCollectionsAndInside(grants: SQL): SQL {
  return sql`(WITH RECURSIVE gc(id, depth) AS (
      SELECT pg.collection_id, 0 FROM ${grants} pg WHERE pg.collection_id IS NOT NULL
      UNION ALL
      SELECT c.id, gc.depth + 1 FROM collections c JOIN gc ON c.parent_id = gc.id WHERE gc.depth < 64)
    SELECT gc.id FROM gc)`;
}

/**
 * The ids of the spaces the principal's grants (`grants`, as above) reach (a query): a grant on the space, or
 * on a collection around it when it is in-collection. One union, not an OR of two subqueries: under an OR,
 * or under a filter the planner puts first, they ran again for every space row (a page of 100 members: 4.5 s).
 */
function reachedIds(grants: SQL): SQL {
  return sql`(SELECT pg.space_id FROM ${grants} pg WHERE pg.space_id IS NOT NULL
    UNION
    SELECT r.id FROM ${grantedCollectionsAndInside(grants)} gc(id)
      CROSS JOIN LATERAL (SELECT r.id FROM spaces r WHERE r.parent_id = gc.id AND r.visibility = 'in-collection' OFFSET 0) r)`;
}

/**
 * The grants of the user `userId` in the organization, theirs and their teams', as rows (space_id,
 * collection_id, role). Grants carry the organization of their content (server/permissions/grant-cleanup.ts). A
 * union of the two, each read through its own index ((organization_id, user_id); team_members by user, then
 * grants by team): under `user_id = … OR team_id IN (…)` the planner scanned every grant of the organization,
 * for each member of a list's page (bench/scale.ts).
 */
const userGrants = (organizationId: SQL, userId: SQL) =>
  sql`(SELECT g.space_id, g.collection_id, g.role FROM content_grants g WHERE g.organization_id = ${organizationId} AND g.user_id = ${userId}
    UNION ALL
    SELECT g.space_id, g.collection_id, g.role FROM team_members tm JOIN content_grants g ON g.team_id = tm.team_id
    WHERE tm.organization_id = ${organizationId} AND tm.user_id = ${userId} AND g.organization_id = ${organizationId})`;

/** The grants of the team `teamId` in the organization, as rows (space_id, collection_id). */
const teamGrants = (organizationId: SQL, teamId: SQL) =>
  sql`(SELECT g.space_id, g.collection_id FROM content_grants g WHERE g.team_id = ${teamId} AND g.organization_id = ${organizationId})`;

/**
 * The number of live spaces of the organization among those a grant reaches, that pass `condition` (on the
 * space row `s`) and that the viewer can see: found from the grants first (a materialized CTE), the costly
 * conditions in the aggregate's filter, which only the spaces reached meet (in the WHERE, the planner
 * applied them to every space of the organization before the join, for every member of the page).
 */
function countReached(organizationId: SQL, grants: SQL, viewerId: string | null, condition: SQL = sql``): SQL<number> {
  const viewer = viewerSight(viewerId);
  return sql<number>`(WITH reached(id) AS MATERIALIZED ${reachedIds(grants)}
    SELECT count(*) FILTER (WHERE TRUE${condition}${viewer.condition}) FROM reached
      CROSS JOIN LATERAL (SELECT s.* FROM spaces s WHERE s.id = reached.id AND s.organization_id = ${organizationId} AND s.deleted_at IS NULL OFFSET 0) s${viewer.join})`;
}

/** The live spaces the team `teamId`'s grants reach that the viewer can see too. */
export function teamSpaceCount(organizationId: SQL, teamId: SQL, viewerId: string): SQL<number> {
  return countReached(organizationId, teamGrants(organizationId, teamId), viewerId);
}

/**
 * The space rows `s` the viewer can see too, as a join and a condition (nothing for a null viewer: an
 * installation, which sees every space). Disabled members see nothing. An admin viewer sees every live
 * space (space_role_of is 'admin' for them on each): said first, so that for them the role is not
 * computed on every space counted (the OR stops at its first true operand).
 */
function viewerSight(viewerId: string | null): { join: SQL; condition: SQL } {
  if (viewerId === null) return { join: sql``, condition: sql`` };
  return {
    join: sql` LEFT JOIN members vm ON vm.organization_id = s.organization_id AND vm.user_id = ${viewerId} AND NOT vm.disabled`,
    condition: sql` AND (vm.role = 'admin' OR space_role_of(s, ${viewerId}, vm.user_id IS NOT NULL, vm.role) IS NOT NULL)`,
  };
}

/**
 * The number of live spaces of the organization that the member (`userId`, organization role `role`, as
 * SQL of the row listed) can see and the viewer can see too. What is the same for every member (all the
 * viewer's spaces for an admin; those whose levels admit members for a role below, their number and their
 * ids) does not depend on the row: the database computes it once per statement (an InitPlan, a hashed
 * SubPlan), so a member costs the few index reads of their own grants.
 */
export function memberSpaceCount(organizationId: string, viewerId: string | null, userId: SQL, role: SQL): SQL<number> {
  const viewer = viewerSight(viewerId);
  const live = sql`FROM spaces s${viewer.join} WHERE s.organization_id = ${organizationId} AND s.deleted_at IS NULL${viewer.condition}`;
  const admitted = admittedSpaceIds(sql`${organizationId}`);
  return sql<number>`(CASE WHEN ${role} = 'admin' THEN (SELECT count(*) ${live})
    ELSE (CASE WHEN ${role} IS NOT NULL THEN (SELECT count(*) ${live} AND s.id IN ${admitted}) ELSE 0 END)
      + ${countReached(sql`${organizationId}`, userGrants(sql`${organizationId}`, userId), viewerId, sql` AND NOT (${role} IS NOT NULL AND s.id IN ${admitted})`)}
    END)`;
}

/**
 * The page size from which a list of members or teams counts its rows' spaces in the viewer's sight
 * (viewerSightTable) rather than space by space: the sight costs about 1 ms at 1,000 spaces whatever the
 * page, and saves 0.01-0.03 ms a row (side by side at 100,000 pages: a page of 100 members 15.1 -> 13.4 ms,
 * of 10 members 7.8 -> 8.7 ms), so a shorter page counts row by row.
 */
export const SIGHT_FROM_ROWS = 32;

/**
 * The organization's live spaces the viewer can see (every one for a null viewer: an installation), as rows
 * `v`: what follows a FROM. The viewer's sight is memberSees' (their role read from their membership: a
 * disabled member, or none, sees nothing), so no role is computed per space.
 */
function visibleSpaces(organizationId: string, viewerId: string | null): SQL {
  const live = sql`v.organization_id = ${organizationId} AND v.deleted_at IS NULL`;
  if (viewerId === null) return sql`spaces v WHERE ${live}`;
  return sql`spaces v JOIN members vm ON vm.organization_id = v.organization_id AND vm.user_id = ${viewerId} AND NOT vm.disabled
    WHERE ${live} AND ${memberSees(organizationId, viewerId, sql`vm.role`, 'v') ?? sql`true`}`;
}

/**
 * The viewer's sight of the organization's live spaces, as a one-row table a list of members or teams joins
 * once (its SQL, aliased `viewer_sight`): `spaces`, a map of the ids of the spaces the viewer sees
 * (visibleSpaces) to whether their levels admit a member with a role (admittedSpaceIds; false throughout
 * without `withAdmitted`, which a team's count does not need); `every` and `admitted`, how many of each;
 * `inside`, a map of each collection of the organization to the in-collection spaces the viewer sees anywhere
 * beneath it (collectionsInside), where a grant on a collection reaches.
 * Joined, it is planned and computed once per statement; written into each count that needs it, each copy
 * was planned on its own (a page of members planned in 4.5 ms rather than 2), and a hashed `IN` over it
 * made PGlite's page of 100 teams take 33 ms rather than 13. Its subqueries are kept apart (OFFSET 0), or
 * the planner writes their expressions into what reads them: the admitted flag the aggregates read twice was
 * computed twice (1.2 ms each at 1,000 spaces), and `inside` once per row of the page.
 */
export function viewerSightTable(organizationId: string, viewerId: string | null, withAdmitted = true): SQL {
  const admitted = withAdmitted ? sql`v.id IN ${admittedSpaceIds(sql`${organizationId}`)}` : sql`false`;
  return sql`(SELECT sight.spaces, sight.every, sight.admitted, ${collectionsInside(organizationId)} AS inside
    FROM (SELECT coalesce(jsonb_object_agg(x.id, x.admitted), '{}'::jsonb) AS spaces, count(*) AS every, count(*) FILTER (WHERE x.admitted) AS admitted
      FROM (SELECT v.id, ${admitted} AS admitted FROM ${visibleSpaces(organizationId, viewerId)} OFFSET 0) x) sight OFFSET 0) AS viewer_sight`;
}

/**
 * Each collection of the organization mapped to the in-collection spaces anywhere beneath it (down to the
 * depth grantedCollectionsAndInside goes, 64), as a jsonb object of arrays: what a grant on the collection
 * reaches, worked out once per statement for every collection (the rows' lookups keep the viewer's sight).
 * Looked up by each row of a long page, it spares the row the walk down its grants' collections and the
 * read of their spaces (a recursive query per row: 5.7 of the 14 ms of a page of 100 members at 100,000
 * pages; 0.025 ms a row instead of 0.057, 1.6 ms once).
 */
function collectionsInside(organizationId: string): SQL {
  return sql`(SELECT coalesce(jsonb_object_agg(d.start, d.ids), '{}'::jsonb) FROM (
      SELECT down.start, jsonb_agg(r.id) AS ids
      FROM (WITH RECURSIVE down(start, id, depth) AS (
          SELECT c.id, c.id, 0 FROM collections c WHERE c.organization_id = ${organizationId}
          UNION ALL
          SELECT down.start, c.id, down.depth + 1 FROM down JOIN collections c ON c.parent_id = down.id WHERE down.depth < 64)
        SELECT down.start, down.id FROM down) down
      JOIN spaces r ON r.parent_id = down.id AND r.visibility = 'in-collection'
      GROUP BY down.start) d)`;
}

/**
 * The ids of the spaces the grants (`grants`: rows (space_id, collection_id)) reach that the viewer sees, for
 * a row of a long page whose statement joins viewerSightTable: a grant on a space is that space, a grant on a
 * collection the spaces the sight's `inside` maps it to (reachedIds' spaces, those in the viewer's sight). A
 * grant on a site has neither and reaches no space.
 */
function reachedInSight(grants: SQL): SQL {
  return sql`(SELECT DISTINCT r.id FROM ${grants} pg
      CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN pg.space_id IS NOT NULL THEN jsonb_build_array(pg.space_id) ELSE viewer_sight.inside -> pg.collection_id END) r(id)
      WHERE viewer_sight.spaces ? r.id)`;
}

/**
 * memberSpaceCount for the rows of a list's page whose statement joins viewerSightTable: the same number,
 * each member's reached spaces looked up in the viewer's sight, instead of read one by one with the viewer's
 * role computed on each (13 reached spaces a member, 100 members a page: most of the members' page at
 * 100,000 pages, bench/scale.ts). A single member's read keeps memberSpaceCount, which does not compute the
 * viewer's sight over every space of the organization.
 */
export function memberSpaceCountInSight(organizationId: string, userId: SQL, role: SQL): SQL<number> {
  const reached = reachedInSight(userGrants(sql`${organizationId}`, userId));
  return sql<number>`(CASE WHEN ${role} = 'admin' THEN viewer_sight.every
    ELSE (CASE WHEN ${role} IS NOT NULL THEN viewer_sight.admitted ELSE 0 END)
      + (SELECT count(*) FROM ${reached} r(id) WHERE NOT (${role} IS NOT NULL AND (viewer_sight.spaces ->> r.id)::boolean))
    END)`;
}

/**
 * teamSpaceCount for the rows of a list's page whose statement joins viewerSightTable: the same number, the
 * team's reached spaces looked up in the viewer's sight rather than read one by one with the viewer's role
 * computed on each. A single team's read keeps teamSpaceCount.
 */
export function teamSpaceCountInSight(organizationId: string, teamId: SQL): SQL<number> {
  return sql<number>`(SELECT count(*) FROM ${reachedInSight(teamGrants(sql`${organizationId}`, teamId))} r(id))`;
}

/**
 * Whether the member `userId` with the organization role `role` can see the space row `s` (its SQL name):
 * `space_role_of(s, userId, true, role) IS NOT NULL`, without computing the role, and for a guest without
 * looking at any space their grants do not reach. For the lists' conditions and totals, which cover every
 * space of the organization; the role itself is then computed on the rows of the page only. `role` is the
 * role, or SQL that reads it (a read attached to the organization's grant: granted-organization-role.ts),
 * whose cases a CASE takes in the same order.
 */
export function memberSees(organizationId: string, userId: string, role: string | null | SQL, s: string): SQL | undefined {
  if (role === 'admin') return undefined;
  const reached = sql`${sql.raw(s)}.id IN ${reachedIds(userGrants(sql`${organizationId}`, sql`${userId}`))}`;
  const admittedOrReached = sql`(${sql.raw(s)}.id IN ${admittedSpaceIds(sql`${organizationId}`)} OR ${reached})`;
  if (role === null) return reached;
  if (typeof role === 'string') return admittedOrReached;
  return sql`(CASE WHEN ${role} = 'admin' THEN true WHEN ${role} IS NOT NULL THEN ${admittedOrReached} ELSE ${reached} END)`;
}

/**
 * The role of the member `userId` (organization role `orgRole`) on each space row `s` (its SQL name) of a
 * list's page: `space_role_of(s, userId, true, orgRole)`, with what it looks up per row computed once per
 * statement. space_role_of runs collection_chain_access (PL/pgSQL: a recursive walk up the collections and a
 * read of the grants) for every in-collection row, ~0.15 ms each: a page of 50 of a guest's spaces cost
 * 18 of its 22 ms at 1,000 spaces (bench/scale.ts). Here every collection of the organization has its chain
 * worked out at once (one recursive query over the collections, walking up as collection_chain_access does,
 * 64 parents at most), and the user's grants on spaces are read once: two maps (jsonb, an InitPlan each) the
 * rows look up. The answer is the same as space_role_of's: content_role on the same inputs. `orgRole` as
 * memberSees' `role`.
 */
export function spaceRoleOnRows(organizationId: string, userId: string, orgRole: string | null | SQL, s = '"spaces"'): SQL<string | null> {
  const row = sql.raw(s);
  const org = sql`${organizationId}`;
  const grants = userGrants(org, sql`${userId}`);
  // collection id -> [level, granted]: collection_chain_access(id, userId) for every collection of the organization.
  const chains = sql`(SELECT jsonb_object_agg(ch.id, jsonb_build_array(ch.level, ch.granted)) FROM ${collectionChains(org, grants)} ch)`;
  // space id -> the strongest grant on it: space_granted(id, organizationId, userId).
  const granted = sql`(SELECT jsonb_object_agg(sg.space_id, sg.role) FROM (
      SELECT ug.space_id, rank_role(max(role_rank(ug.role))) AS role FROM ${grants} ug WHERE ug.space_id IS NOT NULL GROUP BY ug.space_id) sg)`;
  const chain = sql`(SELECT CASE WHEN x.v IS NOT NULL THEN ARRAY[x.v ->> 0, x.v ->> 1] END
    FROM (SELECT ${chains} -> ${row}.parent_id AS v OFFSET 0) x)`;
  // An admin's role is admin, the maps not read (an InitPlan runs when first needed).
  return unlessAdmin(orgRole, sql<string | null>`content_role(true, ${orgRole}::text, ${row}.default_level, ${granted} ->> ${row}.id,
    CASE WHEN ${row}.visibility = 'in-collection' THEN ${chain} END)`);
}
