// The counters a Space shows (its change requests by status, its open comments), as scalar subqueries a
// query over `spaces` adds to its select: lists get them for every row in the same query.
import { eq, sql } from 'drizzle-orm';
import type { SpaceCounts } from '../auth/access.js';
import type { Db } from '../db/client.js';
import { spaces } from '../db/schema/index.js';

export type { SpaceCounts };

// The outer column is written qualified: Drizzle renders a single-table select's columns unqualified,
// which inside the subquery would name the inner table's `id`.
const countOf = (from: string, filter = '') =>
  sql<number>`(SELECT count(*) FROM ${sql.raw(from)} x WHERE x.space_id = "spaces"."id"${sql.raw(filter)})`.mapWith(Number);

/** Extra select fields giving each space row its counters (for keysetPage extras or a select). */
export function spaceCountFields() {
  return {
    changeRequests: countOf('change_requests'),
    changeRequestsOpen: countOf('change_requests', ` AND x.status = 'open'`),
    changeRequestsDraft: countOf('change_requests', ` AND x.status = 'draft'`),
    comments: countOf('comments', ` AND x.status = 'open'`),
  };
}

/** The counters of one space, in one query. */
export async function readSpaceCounts(db: Db, spaceId: string): Promise<SpaceCounts> {
  const [row] = await db.select(spaceCountFields()).from(spaces).where(eq(spaces.id, spaceId));
  return row ?? NEW_SPACE_COUNTS;
}

/** The counters of a space that has just been created: it has no change requests or comments yet. */
export const NEW_SPACE_COUNTS: SpaceCounts = { changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 };

/** The counters of a grant's space: read with the grant by the access check, else now. */
export async function countsOfGrant(db: Db, grant: { row: { id: string }; counts?: SpaceCounts }): Promise<SpaceCounts> {
  return grant.counts ?? readSpaceCounts(db, grant.row.id);
}
