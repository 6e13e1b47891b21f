// The queries of the access layer: each reads a resource together with the caller's membership of its
// organization and the default levels it inherits, in one round trip. They run on every request, so they
// are plain SQL run straight on the driver (server/db/client.ts `directQuery`), prepared on PostgreSQL.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { directQuery, tableRow, type Db } from '../db/client.js';
import { collections, organizations, spaces } from '../db/schema/index.js';

/**
 * The default levels (non-null) of the collection `start` and of every collection enclosing it: access
 * given on a collection reaches everything inside it. Null when `start` is null. The recursive query is
 * the SQL function `collection_chain_levels` (migration 0002), whose plan the database caches.
 */
export function chainLevels(start: AnyPgColumn | SQL) {
  return sql<string[] | null>`collection_chain_levels(${start})`;
}

/** For each space row: the levels it inherits, which only an in-collection space does. */
export function inheritedBySpace() {
  return sql<string[] | null>`CASE WHEN ${spaces.visibility} = 'in-collection' THEN ${chainLevels(spaces.parentId)} END`;
}

// The caller's membership ($2) of the resource's organization; disabled members count as none.
const membership = (organizationColumn: string) =>
  `LEFT JOIN members m ON m.organization_id = ${organizationColumn} AND m.user_id = $2 AND NOT m.disabled`;

const queries = {
  organization: `SELECT o.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member
    FROM organizations o ${membership('o.id')} WHERE o.id = $1`,
  collection: `SELECT c.*, m.role AS member_role, collection_chain_levels(c.parent_id) AS inherited
    FROM collections c ${membership('c.organization_id')} WHERE c.id = $1`,
  // Only the row: for the operations that do not answer a Space (a change request's write, a comment…).
  space: `SELECT s.*, m.role AS member_role,
      CASE WHEN s.visibility = 'in-collection' THEN collection_chain_levels(s.parent_id) END AS inherited
    FROM spaces s ${membership('s.organization_id')} WHERE s.id = $1`,
  // With the counters a Space shows, so reading a space stays one round trip.
  spaceWithCounters: `SELECT s.*, m.role AS member_role,
      CASE WHEN s.visibility = 'in-collection' THEN collection_chain_levels(s.parent_id) END AS inherited,
      (SELECT count(*)::int FROM change_requests x WHERE x.space_id = s.id) AS change_requests,
      (SELECT count(*)::int FROM change_requests x WHERE x.space_id = s.id AND x.status = 'open') AS change_requests_open,
      (SELECT count(*)::int FROM change_requests x WHERE x.space_id = s.id AND x.status = 'draft') AS change_requests_draft,
      (SELECT count(*)::int FROM comments x WHERE x.space_id = s.id AND x.status = 'open') AS comments,
      EXISTS (SELECT 1 FROM site_spaces x JOIN sites y ON y.id = x.site_id AND y.published WHERE x.space_id = s.id) AS on_published_site
    FROM spaces s ${membership('s.organization_id')} WHERE s.id = $1`,
};


async function readOne(db: Db, kind: keyof typeof queries, id: string, userId: string) {
  const [raw] = await directQuery(db, `grant_${kind}`, queries[kind], [id, userId]);
  return raw;
}

/** An organization with the caller's membership; undefined when it does not exist. */
export async function readOrganizationGrant(db: Db, id: string, userId: string) {
  const raw = await readOne(db, 'organization', id, userId);
  return raw && { organization: tableRow(organizations, raw), memberRole: raw.member_role as string | null, isMember: raw.is_member === true };
}

/** A collection with the caller's organization role and the levels of the collections around it. */
export async function readCollectionGrant(db: Db, id: string, userId: string) {
  const raw = await readOne(db, 'collection', id, userId);
  return raw && { collection: tableRow(collections, raw), memberRole: raw.member_role as string | null, inherited: raw.inherited as string[] | null };
}

/**
 * A space with the caller's organization role and the levels of its collections when in-collection;
 * `withCounters` (the operations answering a Space) also reads its counters and whether a published site
 * publishes it, which the other operations would only pay for.
 */
export async function readSpaceGrant(db: Db, id: string, userId: string, withCounters = true) {
  const raw = await readOne(db, withCounters ? 'spaceWithCounters' : 'space', id, userId);
  if (!raw) return undefined;
  const found = { space: tableRow(spaces, raw), memberRole: raw.member_role as string | null, inherited: raw.inherited as string[] | null };
  if (!withCounters) return { ...found, counts: undefined, onPublishedSite: undefined };
  return {
    ...found,
    counts: {
      changeRequests: Number(raw.change_requests),
      changeRequestsOpen: Number(raw.change_requests_open),
      changeRequestsDraft: Number(raw.change_requests_draft),
      comments: Number(raw.comments),
    },
    onPublishedSite: raw.on_published_site === true,
  };
}
