// The two change-request lists (a space's, an organization's): newest first by `updatedAt` or
// `createdAt`, keyset-paginated on (that time, id), with the creator, the space (its current revision,
// edit mode and merge rules), the organization's merge rules, the caller's role on the space
// and the reviews joined in the same query, so no query runs per listed item and `permissions.merge`
// says what the merge would decide (merge-check.ts).
import { and, count, eq, exists, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { spaceRoleOf } from '../auth/grants.js';
import { asRole, type Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type SortKey } from '../db/cursor.js';
import { changeRequestReviewers, changeRequests, organizations, siteSpaces, spaces, users } from '../db/schema/index.js';
import { openCommentsField, toChangeRequest } from './change-request-view.js';
import { mayMergeListed } from './merge-check.js';
import type { ReviewFacts } from './merge-rules.js';

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

/** The reviews of each change request, oldest first, as a field of the select (a JSON array). */
function reviewsField() {
  return sql<{ id: string; reviewer: string; status: ReviewFacts['status']; revision: string; at: number }[]>`(
    SELECT coalesce(json_agg(json_build_object('id', r.id, 'reviewer', r.reviewer_id, 'status', r.status, 'revision', r.revision_id,
      'at', floor(extract(epoch FROM r.created_at) * 1000)) ORDER BY r.created_at, r.id), '[]'::json)
    FROM change_request_reviews r WHERE r.change_request_id = "change_requests"."id")`;
}

/**
 * One page of the change requests matching `scope` and the filters, as a list envelope; `orgRole` is the
 * caller's role in the organization (null: guest), from which its role on each space follows.
 */
export async function listChangeRequests(ctx: Ctx, scope: SQL, filters: ListFilters, orgRole: Role | null) {
  // Change requests here are never opened from a site topic, so none is about one: `topic` matches nothing
  // (rather than being ignored, which would answer an unfiltered list).
  if (filters.topic !== undefined) return { items: [], count: 0 };
  // The caller's role on each space (docs/permissions.md); the spaces they cannot see are left out.
  const roleOnSpace = spaceRoleOf(ctx.caller.userId, orgRole);
  const where = and(
    scope,
    isNull(spaces.deletedAt),
    orgRole === 'admin' ? undefined : sql`${roleOnSpace} IS NOT NULL`,
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
    .select({
      cr: changeRequests,
      creator: users,
      space: { revisionId: spaces.revisionId, editMode: spaces.editMode, mergeRules: spaces.mergeRules, defaultLevel: spaces.defaultLevel, visibility: spaces.visibility },
      role: roleOnSpace,
      organizationRules: organizations.mergeRules,
      comments: openCommentsField(),
      reviews: reviewsField(),
    })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .innerJoin(organizations, eq(organizations.id, spaces.organizationId))
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
    items: page.rows.map((r) => {
      const role = asRole(r.role);
      const reviews = r.reviews.map((v) => ({ id: v.id, reviewer: v.reviewer, status: v.status, revision: v.revision, createdAt: new Date(Number(v.at)) }));
      const mayMerge = mayMergeListed(ctx, r.space, r.cr, role, r.organizationRules, reviews);
      return toChangeRequest(ctx, r.cr, r.creator, r.space.revisionId, r.comments, mayMerge);
    }),
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
