// The queries of the access layer: each reads a resource together with the caller's membership of its
// organization and the default levels it inherits, in one round trip (a prepared statement).
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { collections, members, organizations, spaces } from '../db/schema/index.js';

/**
 * The default levels (non-null) of the collection `start` and of every collection enclosing it: access
 * given on a collection reaches everything inside it. Null when `start` is null.
 */
export function chainLevels(start: AnyPgColumn | SQL) {
  return sql<string[] | null>`(
    WITH RECURSIVE chain(id, parent_id, level, depth) AS (
      SELECT c.id, c.parent_id, c.default_level, 0 FROM collections c WHERE c.id = ${start}
      UNION ALL
      SELECT c.id, c.parent_id, c.default_level, chain.depth + 1 FROM collections c JOIN chain ON c.id = chain.parent_id
      WHERE chain.depth < 64
    )
    SELECT array_agg(level) FROM chain WHERE level IS NOT NULL
  )`;
}

/** The caller's membership row joined to a resource of `organizationColumn`'s organization. */
function membershipOf(organizationColumn: AnyPgColumn) {
  return and(
    eq(members.organizationId, organizationColumn),
    eq(members.userId, sql.placeholder('userId')),
    eq(members.disabled, false),
  );
}

/** For each space row: the levels it inherits, which only an in-collection space does. */
export function inheritedBySpace() {
  return sql<string[] | null>`CASE WHEN ${spaces.visibility} = 'in-collection' THEN ${chainLevels(spaces.parentId)} END`;
}

function buildQueries(db: Db) {
  return {
    organization: db
      .select({ organization: organizations, memberRole: members.role, isMember: sql<boolean>`${members.userId} IS NOT NULL` })
      .from(organizations)
      .leftJoin(members, membershipOf(organizations.id))
      .where(eq(organizations.id, sql.placeholder('id')))
      .prepare('grant_organization'),
    collection: db
      .select({
        collection: getTableColumns(collections),
        memberRole: members.role,
        // The levels of the enclosing collections; its own is in the row.
        inherited: chainLevels(collections.parentId),
      })
      .from(collections)
      .leftJoin(members, membershipOf(collections.organizationId))
      .where(eq(collections.id, sql.placeholder('id')))
      .prepare('grant_collection'),
    space: db
      .select({
        space: getTableColumns(spaces),
        memberRole: members.role,
        isMember: sql<boolean>`${members.userId} IS NOT NULL`,
        // Only an in-collection space takes the levels of its collection.
        inherited: inheritedBySpace(),
      })
      .from(spaces)
      .leftJoin(members, membershipOf(spaces.organizationId))
      .where(eq(spaces.id, sql.placeholder('id')))
      .prepare('grant_space'),
  };
}

type Queries = ReturnType<typeof buildQueries>;
const prepared = new WeakMap<Db, Queries>();

/** The prepared access queries of a database, made once per database. */
export function grantQueries(db: Db): Queries {
  let queries = prepared.get(db);
  if (!queries) {
    queries = buildQueries(db);
    prepared.set(db, queries);
  }
  return queries;
}
