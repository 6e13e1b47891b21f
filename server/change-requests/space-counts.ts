// The counters a Space shows (its change requests by status, its open comments), as one scalar subquery a
// query over `spaces` adds to its select: lists get them for every row in the same query.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { SpaceCounts } from '../auth/access.js';
import type { Db } from '../db/client.js';
import { spaces } from '../db/schema/index.js';

export type { SpaceCounts };

/**
 * A select field giving each space row its counters (for keysetPage extras or a select): its change requests
 * counted in one scan of them (all, open, draft) rather than three, its open comments beside them. The outer
 * column is written qualified: Drizzle renders a single-table select's columns unqualified, which inside the
 * subquery would name the inner table's `id`.
 */
export function spaceCounts(): SQL<SpaceCounts> {
  return sql`(SELECT ARRAY[count(*), count(*) FILTER (WHERE x.status = 'open'), count(*) FILTER (WHERE x.status = 'draft'),
      (SELECT count(*) FROM comments c WHERE c.space_id = "spaces"."id" AND c.status = 'open')]::int[]
    FROM change_requests x WHERE x.space_id = "spaces"."id")`.mapWith(countsOf);
}

/** The counters from the array spaceCounts reads (parsed by either driver, or JSON when attached to a grant's statement). */
function countsOf(value: unknown): SpaceCounts {
  const [changeRequests, changeRequestsOpen, changeRequestsDraft, comments] = (value as number[]).map(Number);
  return { changeRequests, changeRequestsOpen, changeRequestsDraft, comments };
}

/** The counters of one space, in one query. */
export async function readSpaceCounts(db: Db, spaceId: string): Promise<SpaceCounts> {
  const [row] = await db.select({ counts: spaceCounts() }).from(spaces).where(eq(spaces.id, spaceId));
  return row?.counts ?? NEW_SPACE_COUNTS;
}

/** The counters of a space that has just been created: it has no change requests or comments yet. */
export const NEW_SPACE_COUNTS: SpaceCounts = { changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 };

/** The counters of a grant's space: read with the grant by the access check, else now. */
export async function countsOfGrant(db: Db, grant: { row: { id: string }; counts?: SpaceCounts }): Promise<SpaceCounts> {
  return grant.counts ?? readSpaceCounts(db, grant.row.id);
}
