// The two change-request lists (a space's, an organization's): newest first by `updatedAt` or
// `createdAt`, keyset-paginated on (that time, id), with the creator and the space's current revision
// joined in the same query, so no query runs per listed item.
import { and, count, eq, exists, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type SortKey } from '../db/cursor.js';
import { changeRequestReviewers, changeRequests, siteSpaces, spaces, users } from '../db/schema/index.js';
import { openCommentsField, toChangeRequest } from './change-request-view.js';

export interface ListFilters {
  page?: string;
  limit?: number;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  topic?: string;
  conversationsIssuesCluster?: string;
  /** Only the change requests of the spaces this site publishes. */
  site?: string;
  orderBy: 'updatedAt' | 'createdAt';
}

/** One page of the change requests matching `scope` and the filters, as a list envelope. */
export async function listChangeRequests(ctx: Ctx, scope: SQL, filters: ListFilters) {
  // Change requests here are never opened from a site topic, so none is about one: `topic` matches nothing
  // (rather than being ignored, which would answer an unfiltered list).
  if (filters.topic !== undefined) return { items: [], count: 0 };
  const where = and(
    scope,
    isNull(spaces.deletedAt),
    filters.creator !== undefined ? eq(changeRequests.createdBy, filters.creator) : undefined,
    filters.contributor !== undefined ? sql`${changeRequests.contributors} @> ${JSON.stringify([filters.contributor])}::jsonb` : undefined,
    filters.requestedReviewer !== undefined
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(changeRequestReviewers)
            .where(and(eq(changeRequestReviewers.changeRequestId, changeRequests.id), eq(changeRequestReviewers.userId, filters.requestedReviewer))),
        )
      : undefined,
    filters.conversationsIssuesCluster !== undefined ? eq(changeRequests.conversationsIssuesClusterId, filters.conversationsIssuesCluster) : undefined,
    filters.site !== undefined
      ? inArray(changeRequests.spaceId, ctx.db.select({ id: siteSpaces.spaceId }).from(siteSpaces).where(eq(siteSpaces.siteId, filters.site)))
      : undefined,
  );
  const sortColumn = filters.orderBy === 'createdAt' ? changeRequests.createdAt : changeRequests.updatedAt;
  const keys: SortKey[] = [
    { column: sortColumn, kind: 'timestamp', cast: 'timestamptz' },
    { column: changeRequests.id, kind: 'string' },
  ];
  const limit = pageLimit(filters);
  const rows = await ctx.db
    .select({ cr: changeRequests, creator: users, spaceRevision: spaces.revisionId, comments: openCommentsField() })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .where(and(where, afterCursor(keys, 'desc', filters.page)))
    .orderBy(...orderOf(keys, 'desc'))
    .limit(limit + 1);
  const [{ total }] = await ctx.db
    .select({ total: count() })
    .from(changeRequests)
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .where(where);
  const page = cutPage(rows, limit, ({ cr }) => [(filters.orderBy === 'createdAt' ? cr.createdAt : cr.updatedAt).toISOString(), cr.id]);
  return {
    items: page.rows.map((r) => toChangeRequest(ctx, r.cr, r.creator, r.spaceRevision, r.comments)),
    count: total,
    ...(page.next && { next: page.next }),
  };
}

/** The scope of a space's list: its change requests with `status`. */
export function spaceScope(spaceId: string, status: string): SQL {
  return and(eq(changeRequests.spaceId, spaceId), eq(changeRequests.status, status)) as SQL;
}

/** The scope of an organization's list: its change requests with any of `statuses`, optionally of one space. */
export function organizationScope(organizationId: string, statuses: string[], space?: string): SQL {
  return and(
    eq(changeRequests.organizationId, organizationId),
    inArray(changeRequests.status, statuses),
    space !== undefined ? eq(changeRequests.spaceId, space) : undefined,
  ) as SQL;
}
