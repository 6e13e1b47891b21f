// Reviews of change requests and the users asked for them. A review is made against the change request's
// revision of the moment; `outdated` (computed, never stored) says that the change request has a newer
// revision since, or that the same reviewer reviewed again. Asking a user again renews their request
// (revision, requester, time); reviewing does not end a request: it is withdrawn explicitly.
import { and, count, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { changeRequestReviewOperations } from '../../contract/change-request-reviews.js';
import type { components } from '../../generated/types.js';
import { roleOfUserOnSpace, type SpaceGrant } from '../auth/access.js';
import { attachAll, attachListPage, attachSelect, pageOf, rowsOf, type AttachedRead } from '../db/attached-select.js';
import { readOrganizationGrant, readSpaceGrant } from '../auth/grants.js';
import { asRole, atLeast } from '../auth/roles.js';
import { detailSelects, detailsAttached, loadDetails, readDetails, toComment, type BodyFormat, type CommentRow, type Details } from '../comments/comment-view.js';
import { insertComment } from '../comments/comments.store.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type PageRequest, type SortKey } from '../db/cursor.js';
import { changeRequestReviewers, changeRequestReviews, changeRequests, comments, users } from '../db/schema/index.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { toUser, type User } from '../users/users.store.js';
import { totalField } from '../members/directed-page.js';
import type { ChangeRequestRow } from './change-request-view.js';
import { changeRequestNotFound, findChangeRequest, refCondition } from './change-requests.store.js';
import { assertStorableDocument } from '../content/document-check.js';
import { literalLimit } from '../db/literal-limit.js';

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
  return requestedReviewerViews(rows, await usersById(ctx, rows.flatMap((r) => [r.userId, r.requestedBy])));
}

/** The API form of requests to review, given the users they name. */
function requestedReviewerViews(rows: ReviewerRow[], people: Map<string, User>): RequestedReviewer[] {
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

/**
 * The selects of a page of the users asked to review the change request `ref` of the space, in the order
 * they were (last) asked: the change request, the page, its total and the users the page names, as
 * listRequestedReviewers reads them and getRequestedReviewersByChangeRequestId attaches them
 * (requestedReviewersAttached).
 */
function requestedReviewersPageSelects(ctx: Ctx, spaceId: string, ref: string, query: PageRequest) {
  const changeRequest = ctx.db.select({ id: changeRequests.id }).from(changeRequests).where(refCondition(spaceId, ref));
  const where = eq(changeRequestReviewers.changeRequestId, changeRequest);
  const keys: SortKey[] = [
    { column: changeRequestReviewers.createdAt, kind: 'timestamp' },
    { column: changeRequestReviewers.userId, kind: 'scalar' },
  ];
  const page = { condition: afterCursor(keys, 'asc', query.page), limit: pageLimit(query) };
  const total = ctx.db.select({ n: count() }).from(changeRequestReviewers).where(where);
  const paged = <Q extends PgSelect>(select: Q) => select.where(and(where, page.condition)).orderBy(...orderOf(keys, 'asc')).limit(literalLimit(page.limit + 1));
  const rows = paged(ctx.db.select({ request: changeRequestReviewers, total: totalField(total) }).from(changeRequestReviewers).$dynamic());
  const named = (column: AnyPgColumn) => inArray(users.id, paged(ctx.db.select({ id: column }).from(changeRequestReviewers).$dynamic()));
  const people = ctx.db.select().from(users).where(or(named(changeRequestReviewers.userId), named(changeRequestReviewers.requestedBy)));
  return { changeRequest, page, rows, total, people };
}

/** getRequestedReviewersByChangeRequestId's selects (requestedReviewersPageSelects) attached to its grant. */
export function requestedReviewersAttached(ctx: Ctx, spaceId: string, ref: string, query: PageRequest): AttachedRead {
  const { changeRequest, people, ...page } = requestedReviewersPageSelects(ctx, spaceId, ref, query);
  return attachAll(
    'requested_reviewers',
    attachSelect('requested_reviewers_change_request', changeRequest),
    attachListPage('requested_reviewers', page),
    attachSelect('requested_reviewers_people', people),
  );
}

/** The users asked to review the change request, in the order they were (last) asked. */
export async function listRequestedReviewers(ctx: Ctx, grant: SpaceGrant, ref: string, query: PageRequest) {
  const { changeRequest, page, rows, total, people } = requestedReviewersPageSelects(ctx, grant.row.id, ref, query);
  if ((await rowsOf(grant.attached, 'requested_reviewers_change_request', changeRequest)).length === 0) throw changeRequestNotFound(ref);
  const { items, totalCount } = await pageOf(grant.attached, 'requested_reviewers', page, rows, total);
  const cut = cutPage(items, page.limit, ({ request }) => [request.createdAt.toISOString(), request.userId]);
  const named = new Map((await rowsOf(grant.attached, 'requested_reviewers_people', people)).map((u) => [u.id, toUser(u, ctx.urls)]));
  return { items: requestedReviewerViews(cut.rows.map(({ request }) => request), named), count: totalCount, ...(cut.next && { next: cut.next }) };
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
 * Whether a review row is outdated (its change request has a newer revision, or its reviewer a newer
 * review), as SQL over `change_request_reviews` (for the list filter and the views). The outer columns are written qualified: Drizzle renders a single-table select's columns
 * unqualified, which inside the subquery would name the inner table's.
 */
function outdatedSql(): SQL<boolean> {
  return sql<boolean>`("change_request_reviews"."revision_id" <> (SELECT c.revision_id FROM change_requests c WHERE c.id = "change_request_reviews"."change_request_id") OR EXISTS (
    SELECT 1 FROM change_request_reviews n
    WHERE n.change_request_id = "change_request_reviews"."change_request_id" AND n.reviewer_id = "change_request_reviews"."reviewer_id"
      AND (n.created_at, n.id) > ("change_request_reviews"."created_at", "change_request_reviews"."id")))`;
}

async function toReviews(ctx: Ctx, grant: SpaceGrant, rows: { review: ReviewRow; outdated: boolean }[], format: BodyFormat): Promise<ChangeRequestReview[]> {
  const people = await usersById(ctx, rows.flatMap(({ review }) => [review.reviewerId, review.requestedBy]));
  const commentIds = rows.map(({ review }) => review.commentId).filter((id): id is string => id !== null);
  const commentRows = commentIds.length === 0 ? [] : await ctx.db.select().from(comments).where(inArray(comments.id, commentIds));
  const details = await loadDetails(ctx, commentRows, commentRows.map((c) => c.id));
  return reviewViews(ctx, grant, rows, people, commentRows, details, format);
}

/**
 * The selects of what the reviews `reviewIds` (a select of their ids) show besides their rows: their
 * reviewers and requesters, their comments and the comments' details, from the ids alone, so that they
 * can be read in the statement of the reviews' grant (readReviewExtras).
 */
function reviewExtrasSelects(ctx: Ctx, reviewIds: SQLWrapper) {
  const named = (column: AnyPgColumn) =>
    inArray(users.id, ctx.db.select({ id: column }).from(changeRequestReviews).where(inArray(changeRequestReviews.id, reviewIds)));
  const commentIds = ctx.db.select({ id: changeRequestReviews.commentId }).from(changeRequestReviews).where(inArray(changeRequestReviews.id, reviewIds));
  return {
    people: ctx.db.select().from(users).where(or(named(changeRequestReviews.reviewerId), named(changeRequestReviews.requestedBy))),
    comments: ctx.db.select().from(comments).where(inArray(comments.id, commentIds)),
    details: detailSelects(ctx, commentIds, commentIds),
  };
}

/** reviewExtrasSelects attached under the names readReviewViews reads them by. */
function reviewExtrasAttached(extras: ReturnType<typeof reviewExtrasSelects>): AttachedRead[] {
  return [attachSelect('review_people', extras.people), attachSelect('review_comments', extras.comments), ...detailsAttached(extras.details)];
}

/** The API form of reviews with their extras (reviewExtrasSelects): from the grant's statement when they came with it, else read now. */
async function readReviewViews(
  ctx: Ctx,
  grant: SpaceGrant,
  rows: { review: ReviewRow; outdated: boolean }[],
  extras: ReturnType<typeof reviewExtrasSelects>,
  format: BodyFormat,
): Promise<ChangeRequestReview[]> {
  const people = new Map((await rowsOf(grant.attached, 'review_people', extras.people)).map((u) => [u.id, toUser(u, ctx.urls)]));
  const commentRows = await rowsOf(grant.attached, 'review_comments', extras.comments);
  return reviewViews(ctx, grant, rows, people, commentRows, await readDetails(ctx, grant.attached, extras.details), format);
}

/** The API form of reviews, given the users they name and their comments with those comments' details. */
function reviewViews(
  ctx: Ctx,
  grant: SpaceGrant,
  rows: { review: ReviewRow; outdated: boolean }[],
  people: Map<string, User>,
  commentRows: CommentRow[],
  details: Details,
  format: BodyFormat,
): ChangeRequestReview[] {
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

/** The select of the id and number of the change request `ref` of the space (none when it is not one of the space). */
function changeRequestRefSelect(ctx: Ctx, spaceId: string, ref: string) {
  return ctx.db.select({ id: changeRequests.id, number: changeRequests.number }).from(changeRequests).where(refCondition(spaceId, ref));
}

type ReviewsQuery = PageRequest & { format?: BodyFormat; outdated?: boolean };

/**
 * The selects of a page of the reviews of the change request `ref` of the space, oldest first (`outdated`
 * keeps only the outdated or only the current ones): the change request, the page, its total and the
 * page's extras (reviewExtrasSelects), as listReviews reads them and getReviewsByChangeRequestId attaches
 * them (reviewsAttached).
 */
function reviewsPageSelects(ctx: Ctx, spaceId: string, ref: string, query: ReviewsQuery) {
  const changeRequest = changeRequestRefSelect(ctx, spaceId, ref);
  const outdated = outdatedSql();
  const where = and(
    eq(changeRequestReviews.changeRequestId, ctx.db.select({ id: changeRequests.id }).from(changeRequests).where(refCondition(spaceId, ref))),
    query.outdated === undefined ? undefined : query.outdated ? outdated : sql`NOT ${outdated}`,
  );
  const keys: SortKey[] = [{ column: changeRequestReviews.id, kind: 'string' }];
  const page = { condition: afterCursor(keys, 'asc', query.page), limit: pageLimit(query) };
  const total = ctx.db.select({ n: count() }).from(changeRequestReviews).where(where);
  const paged = <Q extends PgSelect>(select: Q) => select.where(and(where, page.condition)).orderBy(...orderOf(keys, 'asc')).limit(literalLimit(page.limit + 1));
  const rows = paged(ctx.db.select({ review: changeRequestReviews, outdated: outdated.mapWith(Boolean), total: totalField(total) }).from(changeRequestReviews).$dynamic());
  const ids = paged(ctx.db.select({ id: changeRequestReviews.id }).from(changeRequestReviews).$dynamic());
  return { changeRequest, page, rows, total, extras: reviewExtrasSelects(ctx, ids) };
}

/** getReviewsByChangeRequestId's selects (reviewsPageSelects) attached to its grant. */
export function reviewsAttached(ctx: Ctx, spaceId: string, ref: string, query: ReviewsQuery): AttachedRead {
  const { changeRequest, extras, ...page } = reviewsPageSelects(ctx, spaceId, ref, query);
  return attachAll('reviews', attachSelect('review_change_request', changeRequest), attachListPage('reviews', page), ...reviewExtrasAttached(extras));
}

/** The reviews of the change request, oldest first; `outdated` keeps only the outdated or only the current ones. */
export async function listReviews(ctx: Ctx, grant: SpaceGrant, ref: string, query: ReviewsQuery) {
  const { changeRequest, page, rows, total, extras } = reviewsPageSelects(ctx, grant.row.id, ref, query);
  if ((await rowsOf(grant.attached, 'review_change_request', changeRequest)).length === 0) throw changeRequestNotFound(ref);
  const { items, totalCount } = await pageOf(grant.attached, 'reviews', page, rows, total);
  const cut = cutPage(items, page.limit, ({ review }) => [review.id]);
  return { items: await readReviewViews(ctx, grant, cut.rows, extras, query.format ?? 'markdown'), count: totalCount, ...(cut.next && { next: cut.next }) };
}

/** The selects of the review `reviewId` of the change request `ref` of the space: the change request, the review and its extras. */
function reviewSelects(ctx: Ctx, spaceId: string, ref: string, reviewId: string) {
  const changeRequest = changeRequestRefSelect(ctx, spaceId, ref);
  const review = ctx.db
    .select({ review: changeRequestReviews, outdated: outdatedSql().mapWith(Boolean) })
    .from(changeRequestReviews)
    .innerJoin(changeRequests, eq(changeRequests.id, changeRequestReviews.changeRequestId))
    .where(and(eq(changeRequestReviews.id, reviewId), refCondition(spaceId, ref)));
  const ids = ctx.db.select({ id: changeRequestReviews.id }).from(changeRequestReviews).where(eq(changeRequestReviews.id, reviewId));
  return { changeRequest, review, extras: reviewExtrasSelects(ctx, ids) };
}

/** getChangeRequestReviewById's selects (reviewSelects) attached to its grant. */
export function reviewAttached(ctx: Ctx, spaceId: string, ref: string, reviewId: string): AttachedRead {
  const { changeRequest, review, extras } = reviewSelects(ctx, spaceId, ref, reviewId);
  return attachAll('review', attachSelect('review_change_request', changeRequest), attachSelect('review', review), ...reviewExtrasAttached(extras));
}

/** One review of the change request. */
export async function getReview(ctx: Ctx, grant: SpaceGrant, ref: string, reviewId: string, format: BodyFormat): Promise<ChangeRequestReview> {
  const { changeRequest, review, extras } = reviewSelects(ctx, grant.row.id, ref, reviewId);
  const [cr] = await rowsOf(grant.attached, 'review_change_request', changeRequest);
  if (!cr) throw changeRequestNotFound(ref);
  const [row] = await rowsOf(grant.attached, 'review', review);
  if (!row) throw new NotFound(`Review ${reviewId} (path.reviewId) not found on change request ${cr.number}`);
  return (await readReviewViews(ctx, grant, [row], extras, format))[0];
}
