// Reviews of change requests and the users asked for them. A review is made against the change request's
// revision of the moment; `outdated` (computed, never stored) says that the change request has a newer
// revision since, or that the same reviewer reviewed again. Asking a user again renews their request
// (revision, requester, time); reviewing does not end a request: it is withdrawn explicitly.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { changeRequestReviewOperations } from '../../contract/change-request-reviews.js';
import type { components } from '../../generated/types.js';
import { roleOfUserOnSpace, type SpaceGrant } from '../auth/access.js';
import { readOrganizationGrant, readSpaceGrant } from '../auth/grants.js';
import { asRole, atLeast } from '../auth/roles.js';
import { loadDetails, toComment, type BodyFormat } from '../comments/comment-view.js';
import { insertComment } from '../comments/comments.store.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type PageRequest, type SortKey } from '../db/cursor.js';
import { keysetPage } from '../db/paginate.js';
import { changeRequestReviewers, changeRequestReviews, changeRequests, comments, users } from '../db/schema/index.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { toUser } from '../users/users.store.js';
import type { ChangeRequestRow } from './change-request-view.js';
import { findChangeRequest } from './change-requests.store.js';
import { assertStorableDocument } from '../content/document-check.js';

type Ops = typeof changeRequestReviewOperations;
type RequestBody = z.output<Ops['requestReviewersForChangeRequest']['body']>;
type ReviewBody = z.output<Ops['submitChangeRequestReview']['body']>;
export type ChangeRequestReview = components['schemas']['ChangeRequestReview'];
export type RequestedReviewer = components['schemas']['ChangeRequestRequestedReviewer'];
type ReviewerRow = typeof changeRequestReviewers.$inferSelect;
type ReviewRow = typeof changeRequestReviews.$inferSelect;

function refuseClosed(cr: ChangeRequestRow, action: string): void {
  if (cr.status === 'merged' || cr.status === 'archived') throw new Conflict(`Change request ${cr.number} is ${cr.status}: it cannot be ${action}`);
}

/** The users of the given ids, as API users, in one query. */
async function usersById(ctx: Ctx, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const rows = wanted.length === 0 ? [] : await ctx.db.select().from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((u) => [u.id, toUser(u, ctx.urls)]));
}

async function toRequestedReviewers(ctx: Ctx, rows: ReviewerRow[]): Promise<RequestedReviewer[]> {
  const people = await usersById(ctx, rows.flatMap((r) => [r.userId, r.requestedBy]));
  return rows.map((r) => ({
    object: 'change-request-requested-reviewer' as const,
    revision: r.revisionId,
    requestedBy: people.get(r.requestedBy)!,
    createdAt: r.createdAt.toISOString(),
    kind: 'user' as const,
    user: people.get(r.userId)!,
  }));
}

/** Checks that `userId` may be asked to review the space: a member of its organization with the review role on it. */
async function requireReviewer(ctx: Ctx, grant: SpaceGrant, userId: string, field: string): Promise<void> {
  const membership = await readOrganizationGrant(ctx.db, grant.row.organizationId, userId);
  if (!membership?.isMember) throw new NotFound(`${field}: user ${userId} not found in this organization`);
  const role = await roleOfUserOnSpace(ctx, grant.row.id, userId);
  if (!atLeast(role, 'review')) throw new BadRequest(`${field}: user ${userId} cannot review this space (needs the review role, has ${role ?? 'no role'})`);
}

/** Asks users to review the change request at its current revision; optionally sets its subject and description. */
export async function requestReviewers(ctx: Ctx, grant: SpaceGrant, ref: string, body: RequestBody): Promise<RequestedReviewer[]> {
  const wanted = [...new Set(body.users)];
  if (body.description) assertStorableDocument(body.description, 'body.description');
  const rows = await ctx.transaction(async (tx) => {
    const cr = await findChangeRequest(tx, grant.row.id, ref, true);
    refuseClosed(cr, 'reviewed');
    for (const [i, userId] of body.users.entries()) await requireReviewer(tx, grant, userId, `body.users[${i}]`);
    const now = tx.now();
    if (body.subject !== undefined || body.description !== undefined) {
      await tx.db
        .update(changeRequests)
        .set({
          ...(body.subject !== undefined && { subject: body.subject }),
          ...(body.description !== undefined && { description: body.description }),
          updatedAt: now,
        })
        .where(eq(changeRequests.id, cr.id));
    }
    return tx.db
      .insert(changeRequestReviewers)
      .values(wanted.map((userId) => ({ changeRequestId: cr.id, userId, requestedBy: tx.caller.userId, revisionId: cr.revisionId, createdAt: now })))
      .onConflictDoUpdate({
        target: [changeRequestReviewers.changeRequestId, changeRequestReviewers.userId],
        set: { requestedBy: tx.caller.userId, revisionId: cr.revisionId, createdAt: now },
      })
      .returning();
  });
  const ordered = wanted.map((id) => rows.find((r) => r.userId === id)!);
  return toRequestedReviewers(ctx, ordered);
}

/** The users asked to review the change request, in the order they were (last) asked. */
export async function listRequestedReviewers(ctx: Ctx, grant: SpaceGrant, ref: string, page: PageRequest) {
  const cr = await findChangeRequest(ctx, grant.row.id, ref);
  const result = await keysetPage(
    ctx.db,
    changeRequestReviewers,
    eq(changeRequestReviewers.changeRequestId, cr.id),
    [changeRequestReviewers.createdAt, changeRequestReviewers.userId],
    page,
  );
  return { items: await toRequestedReviewers(ctx, result.rows), count: result.count, ...(result.next && { next: result.next }) };
}

/** Withdraws the request to `userId`; false when there was none. */
export async function removeRequestedReviewer(ctx: Ctx, grant: SpaceGrant, ref: string, userId: string): Promise<boolean> {
  const cr = await findChangeRequest(ctx, grant.row.id, ref);
  const removed = await ctx.db
    .delete(changeRequestReviewers)
    .where(and(eq(changeRequestReviewers.changeRequestId, cr.id), eq(changeRequestReviewers.userId, userId)))
    .returning({ userId: changeRequestReviewers.userId });
  return removed.length > 0;
}

/**
 * Whether a review row is outdated, as SQL over `change_request_reviews` (for the list filter and the
 * views). The outer columns are written qualified: Drizzle renders a single-table select's columns
 * unqualified, which inside the subquery would name the inner table's.
 */
function outdatedSql(cr: ChangeRequestRow): SQL<boolean> {
  return sql<boolean>`("change_request_reviews"."revision_id" <> ${cr.revisionId} OR EXISTS (
    SELECT 1 FROM change_request_reviews n
    WHERE n.change_request_id = "change_request_reviews"."change_request_id" AND n.reviewer_id = "change_request_reviews"."reviewer_id"
      AND (n.created_at, n.id) > ("change_request_reviews"."created_at", "change_request_reviews"."id")))`;
}

async function toReviews(ctx: Ctx, grant: SpaceGrant, rows: { review: ReviewRow; outdated: boolean }[], format: BodyFormat): Promise<ChangeRequestReview[]> {
  const people = await usersById(ctx, rows.flatMap(({ review }) => [review.reviewerId, review.requestedBy]));
  const commentIds = rows.map(({ review }) => review.commentId).filter((id): id is string => id !== null);
  const commentRows = commentIds.length === 0 ? [] : await ctx.db.select().from(comments).where(inArray(comments.id, commentIds));
  const details = await loadDetails(ctx, commentRows, commentRows.map((c) => c.id));
  const commentsById = new Map(commentRows.map((c) => [c.id, toComment(ctx, c, details, grant.role, format)]));
  return rows.map(({ review, outdated }) => ({
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revisionId,
    reviewer: people.get(review.reviewerId)!,
    ...(review.requestedBy && people.has(review.requestedBy) && { requestedBy: people.get(review.requestedBy)! }),
    status: review.status as ChangeRequestReview['status'],
    outdated,
    ...(review.commentId && commentsById.has(review.commentId) && { comment: commentsById.get(review.commentId)! }),
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
    urls: { location: ctx.urls.api(`/spaces/${grant.row.id}/change-requests/${review.changeRequestId}/reviews/${review.id}`) },
  }));
}

/** Records the caller's review of the change request's current revision, with its comment if given. */
export async function submitReview(ctx: Ctx, grant: SpaceGrant, ref: string, body: ReviewBody): Promise<ChangeRequestReview> {
  const review = await ctx.transaction(async (tx) => {
    const cr = await findChangeRequest(tx, grant.row.id, ref, true);
    refuseClosed(cr, 'reviewed');
    const [request] = await tx.db
      .select({ requestedBy: changeRequestReviewers.requestedBy })
      .from(changeRequestReviewers)
      .where(and(eq(changeRequestReviewers.changeRequestId, cr.id), eq(changeRequestReviewers.userId, tx.caller.userId)));
    const now = tx.now();
    const id = newId('crr', now.getTime());
    const [inserted] = await tx.db
      .insert(changeRequestReviews)
      .values({
        id,
        changeRequestId: cr.id,
        reviewerId: tx.caller.userId,
        requestedBy: request?.requestedBy ?? null,
        status: body.status,
        revisionId: cr.revisionId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (body.comment === undefined) return inserted;
    const comment = await insertComment(tx, grant.row.id, { revisionId: cr.revisionId, changeRequestId: cr.id, reviewId: id }, { body: { document: body.comment } });
    const [withComment] = await tx.db.update(changeRequestReviews).set({ commentId: comment.id }).where(eq(changeRequestReviews.id, id)).returning();
    return withComment;
  });
  // Just made, on the current revision: the newest of its reviewer.
  return (await toReviews(ctx, grant, [{ review, outdated: false }], 'markdown'))[0];
}

/** The reviews of the change request, oldest first; `outdated` keeps only the outdated or only the current ones. */
export async function listReviews(ctx: Ctx, grant: SpaceGrant, ref: string, query: PageRequest & { format?: BodyFormat; outdated?: boolean }) {
  const cr = await findChangeRequest(ctx, grant.row.id, ref);
  const outdated = outdatedSql(cr);
  const where = and(
    eq(changeRequestReviews.changeRequestId, cr.id),
    query.outdated === undefined ? undefined : query.outdated ? outdated : sql`NOT ${outdated}`,
  );
  const keys: SortKey[] = [{ column: changeRequestReviews.id, kind: 'string' }];
  const limit = pageLimit(query);
  const rows = await ctx.db
    .select({ review: changeRequestReviews, outdated: outdated.mapWith(Boolean), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(changeRequestReviews)
    .where(and(where, afterCursor(keys, 'asc', query.page)))
    .orderBy(...orderOf(keys, 'asc'))
    .limit(limit + 1);
  const total =
    query.page === undefined
      ? (rows[0]?.total ?? 0)
      : (await ctx.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(changeRequestReviews).where(where))[0].n;
  const page = cutPage(rows, limit, ({ review }) => [review.id]);
  return { items: await toReviews(ctx, grant, page.rows, query.format ?? 'markdown'), count: total, ...(page.next && { next: page.next }) };
}

/** One review of the change request. */
export async function getReview(ctx: Ctx, grant: SpaceGrant, ref: string, reviewId: string, format: BodyFormat): Promise<ChangeRequestReview> {
  const cr = await findChangeRequest(ctx, grant.row.id, ref);
  const [row] = await ctx.db
    .select({ review: changeRequestReviews, outdated: outdatedSql(cr).mapWith(Boolean) })
    .from(changeRequestReviews)
    .where(and(eq(changeRequestReviews.id, reviewId), eq(changeRequestReviews.changeRequestId, cr.id)));
  if (!row) throw new NotFound(`Review ${reviewId} (path.reviewId) not found on change request ${cr.number}`);
  return (await toReviews(ctx, grant, [row], format))[0];
}
