// The two change-request lists (a space's, an organization's): newest first by `updatedAt` or
// `createdAt`, keyset-paginated on (that time, id), with the creator, the space (its current revision,
// edit mode and merge rules), the organization's merge rules, the caller's role on the space
// and the reviews joined in the same query, so no query runs per listed item and `permissions.merge`
// says what the merge would decide (merge-check.ts).
import { and, count, eq, exists, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { changeRequestOperations } from '../../contract/change-requests.js';
import { attachListPage, pageOf, type AttachedRead } from '../db/attached-select.js';
import { spaceRoleOf } from '../auth/grants.js';
import { grantedOrganizationRole, unlessAdmin } from '../auth/granted-organization-role.js';
import { asRole, type Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type SortKey } from '../db/cursor.js';
import { totalField } from '../members/directed-page.js';
import { changeRequestReviewers, changeRequests, organizations, siteSpaces, spaces, users } from '../db/schema/index.js';
import { openCommentsField, toChangeRequest } from './change-request-view.js';
import { mayMergeListed } from './merge-check.js';
import type { ReviewFacts } from './merge-rules.js';
import { literalLimit } from '../db/literal-limit.js';

type SpaceListQuery = z.output<typeof changeRequestOperations.listChangeRequestsForSpace.query>;
type OrganizationListQuery = z.output<typeof changeRequestOperations.listChangeRequestsForOrganization.query>;

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
export function reviewsField() {
  return sql<{ id: string; reviewer: string; status: ReviewFacts['status']; revision: string; at: number }[]>`(
    SELECT coalesce(json_agg(json_build_object('id', r.id, 'reviewer', r.reviewer_id, 'status', r.status, 'revision', r.revision_id,
      'at', floor(extract(epoch FROM r.created_at) * 1000)) ORDER BY r.created_at, r.id), '[]'::json)
    FROM change_request_reviews r WHERE r.change_request_id = "change_requests"."id")`;
}

/** The reviews `reviewsField` read, as the merge rules see them. */
export function reviewFactsOf(reviews: { id: string; reviewer: string; status: ReviewFacts['status']; revision: string; at: number }[]): ReviewFacts[] {
  return reviews.map((v) => ({ id: v.id, reviewer: v.reviewer, status: v.status, revision: v.revision, createdAt: new Date(Number(v.at)) }));
}

/**
 * The caller's role on the spaces of the listed change requests: `{ orgRole }` (null: guest), from which
 * its role on each space follows, the spaces they cannot see left out; or `{ spaceRole }`, the role the
 * access check found on the one space the list is of.
 */
export type ListedRole = { orgRole: Role | null } | { spaceRole: Role | null };

/** For a list over several spaces, the caller's organization role (a role, or SQL that reads it: a read attached to the grant). */
type PerSpace = { orgRole: Role | null | SQL };

/**
 * The selects of one page of the change requests matching `scope` and the filters, and of their total, as
 * listChangeRequests reads them and both lists attach them (spaceListAttached, organizationListAttached). `perSpace`:
 * for a list over several spaces, the caller's organization role, from which their role on each follows.
 */
export function changeRequestsPageSelects(ctx: Ctx, scope: SQL, filters: ListFilters, perSpace: PerSpace | undefined) {
  // The caller's role on each space (docs/permissions.md), read per row; the spaces they cannot see are left
  // out (an admin sees them all). An admin's is 'admin' without calling space_role_of: with the role read in
  // SQL (an attached read), the call is not inlined, and the total's filter ran it on every change request
  // of the organization, 2–2.5 of the statement's ~5.5 ms at 8,000 open ones (bench/scale.ts).
  const roleOnSpace = perSpace && unlessAdmin(perSpace.orgRole, spaceRoleOf(ctx.caller.userId, perSpace.orgRole));
  const where = and(
    scope,
    isNull(spaces.deletedAt),
    roleOnSpace && perSpace.orgRole !== 'admin' ? sql`${roleOnSpace} IS NOT NULL` : undefined,
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
  const page = { condition: afterCursor(keys, 'desc', filters.page), limit: pageLimit(filters) };
  const total = ctx.db
    .select({ n: count() })
    .from(changeRequests)
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .where(where);
  const rows = ctx.db
    .select({
      cr: changeRequests,
      creator: users,
      space: { revisionId: spaces.revisionId, editMode: spaces.editMode, mergeRules: spaces.mergeRules, defaultLevel: spaces.defaultLevel, visibility: spaces.visibility },
      // A list of one space takes the role the access check found there (ListedRole).
      role: roleOnSpace ?? sql<string | null>`NULL::text`,
      organizationRules: organizations.mergeRules,
      comments: openCommentsField(),
      reviews: reviewsField(),
      total: totalField(total),
    })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .innerJoin(organizations, eq(organizations.id, spaces.organizationId))
    .where(and(where, page.condition))
    .orderBy(...orderOf(keys, 'desc'))
    .limit(literalLimit(page.limit + 1));
  return { page, rows, total };
}

/**
 * One page of the change requests matching `scope` and the filters (changeRequestsPageSelects), as a list
 * envelope; from `attached`, the grant's row, when it came with it.
 */
export async function listChangeRequests(ctx: Ctx, scope: SQL, filters: ListFilters, listed: ListedRole, attached?: Record<string, unknown>) {
  // Change requests here are never opened from a site topic, so none is about one: `topic` matches nothing
  // (rather than being ignored, which would answer an unfiltered list).
  if (filters.topic !== undefined) return { items: [], count: 0 };
  const { page, rows, total } = changeRequestsPageSelects(ctx, scope, filters, 'orgRole' in listed ? listed : undefined);
  const { items, totalCount } = await pageOf(attached, 'change_requests', page, rows, total);
  const cut = cutPage(items, page.limit, ({ cr }) => [(filters.orderBy === 'createdAt' ? cr.createdAt : cr.updatedAt).toISOString(), cr.id]);
  return {
    items: cut.rows.map((r) => {
      const role = 'spaceRole' in listed ? listed.spaceRole : asRole(r.role);
      const mayMerge = mayMergeListed(ctx, r.space, r.cr, role, r.organizationRules, reviewFactsOf(r.reviews));
      return toChangeRequest(ctx, r.cr, r.creator, r.space.revisionId, r.comments, mayMerge);
    }),
    count: totalCount,
    ...(cut.next && { next: cut.next }),
  };
}

/** The scope of a space's list: its change requests with `status`. */
export function spaceScope(spaceId: string, status: string): SQL {
  return and(eq(changeRequests.spaceId, spaceId), eq(changeRequests.status, status)) as SQL;
}

/**
 * The page of a space's list (listChangeRequestsForSpace) as it attaches it to its grant: no read when a
 * `topic` leaves the list empty (listChangeRequests).
 */
export function spaceListAttached(ctx: Ctx, spaceId: string, query: SpaceListQuery): AttachedRead | undefined {
  if (query.topic !== undefined) return undefined;
  return attachListPage('change_requests', changeRequestsPageSelects(ctx, spaceScope(spaceId, query.status), query, undefined));
}

/** The scope of an organization's list: its change requests with any of `statuses`, optionally of one space. */
export function organizationScope(organizationId: string, statuses: string[], space?: string): SQL {
  return and(
    eq(changeRequests.organizationId, organizationId),
    inArray(changeRequests.status, statuses),
    space !== undefined ? eq(changeRequests.spaceId, space) : undefined,
  ) as SQL;
}

/**
 * The page of an organization's list (listChangeRequestsForOrganization) as it attaches it to its grant, the
 * caller's organization role read in SQL: no read when a `topic` leaves the list empty (listChangeRequests),
 * nor for a caller the organization grant gives no role this way (granted-organization-role.ts).
 */
export function organizationListAttached(ctx: Ctx, organizationId: string, query: OrganizationListQuery): AttachedRead | undefined {
  const orgRole = grantedOrganizationRole(ctx, organizationId);
  if (query.topic !== undefined || orgRole === undefined) return undefined;
  return attachListPage('change_requests', changeRequestsPageSelects(ctx, organizationScope(organizationId, query.status, query.space), query, { orgRole }));
}
