// Comments and replies of a space: posting (on the space, a page, a block or a table cell), editing,
// resolving, reactions, and idempotent deletes. The reply counter of a comment changes in the same
// transaction as its replies, with the comment row locked.
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { commentOperations } from '../../contract/comments.js';
import type { SpaceGrant } from '../auth/access.js';
import { attachAll, attachListPage, attachSelect, pageOf, rowsOf, type AttachedRead } from '../db/attached-select.js';
import { atLeast } from '../auth/roles.js';
import { blockKeysOf } from '../content/page-content.js';
import { hydratePage } from '../content/content-documents.js';
import { loadRevision } from '../content/revisions.store.js';
import { changeRequestIdSelect, changeRequestNotFound, findChangeRequest } from '../change-requests/change-requests.store.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type PageRequest, type SortKey } from '../db/cursor.js';
import { directedPage, finishPage, totalField } from '../members/directed-page.js';
import { commentReactions, commentReplies, comments } from '../db/schema/index.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { detailSelects, detailsAttached, readDetails, storedBody, loadDetails, react, toComment, toReply, type BodyFormat, type Comment, type CommentReply, type CommentRow, type ReplyRow } from './comment-view.js';
import { literalLimit } from '../db/literal-limit.js';

type Ops = typeof commentOperations;
type PostBody = z.output<Ops['postCommentInSpace']['body']>;
type UpdateBody = z.output<Ops['updateCommentInSpace']['body']>;
type ListQuery = z.output<Ops['listCommentsInSpace']['query']>;
type UpdateReplyBody = z.output<Ops['updateCommentReplyInSpace']['body']>;

/** The select of the comment `commentId` of the space (none when it is not one of the space). */
function commentSelect(ctx: Ctx, spaceId: string, commentId: string) {
  return ctx.db.select().from(comments).where(and(eq(comments.id, commentId), eq(comments.spaceId, spaceId)));
}

async function findComment(ctx: Ctx, spaceId: string, commentId: string, lock = false): Promise<CommentRow | undefined> {
  const query = commentSelect(ctx, spaceId, commentId);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

function commentNotFound(commentId: string): NotFound {
  return new NotFound(`Comment ${commentId} (path.commentId) not found in this space`);
}

function replyNotFound(replyId: string): NotFound {
  return new NotFound(`Reply ${replyId} (path.commentReplyId) not found on this comment`);
}

async function requireComment(ctx: Ctx, spaceId: string, commentId: string, lock = false): Promise<CommentRow> {
  const row = await findComment(ctx, spaceId, commentId, lock);
  if (!row) throw commentNotFound(commentId);
  return row;
}

async function findReply(ctx: Ctx, comment: CommentRow, replyId: string): Promise<ReplyRow | undefined> {
  const [row] = await ctx.db.select().from(commentReplies).where(and(eq(commentReplies.id, replyId), eq(commentReplies.commentId, comment.id)));
  return row;
}

/** The API form of one comment. */
export async function viewComment(ctx: Ctx, grant: SpaceGrant, row: CommentRow, format: BodyFormat): Promise<Comment> {
  return toComment(ctx, row, await loadDetails(ctx, [row], [row.id]), grant.role, format);
}

async function viewReply(ctx: Ctx, grant: SpaceGrant, row: ReplyRow, format: BodyFormat): Promise<CommentReply> {
  return toReply(ctx, grant.row.id, row, await loadDetails(ctx, [row], []), grant.role, format);
}

/** What a new comment is about: the space's current content, or a change request (and maybe its review). */
interface CommentTarget {
  revisionId: string;
  changeRequestId?: string;
  reviewId?: string;
}

/** Inserts an open comment by the caller; the target is already checked. */
export async function insertComment(ctx: Ctx, spaceId: string, target: CommentTarget, body: Omit<PostBody, 'changeRequest'>): Promise<CommentRow> {
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(comments)
    .values({
      id: newId('cmt', now.getTime()),
      spaceId,
      changeRequestId: target.changeRequestId ?? null,
      reviewId: target.reviewId ?? null,
      postedBy: ctx.caller.userId,
      postedAt: now,
      ...storedBody(body.body, 'body.body'),
      pageId: body.page ?? null,
      nodeId: body.node ?? null,
      tableRecord: body.tableCell?.record ?? null,
      tableDefinition: body.tableCell?.definition ?? null,
      revisionId: target.revisionId,
      status: 'open',
    })
    .returning();
  return row;
}

/**
 * Posts a comment on the space's current content, or with `changeRequest` on that change request's
 * current revision. `page` must be a page of that content, and `node` a block key of that page there
 * (blockKeysOf: the keys the page's document shows), so the anchor names a block a reader can find.
 */
export async function postComment(ctx: Ctx, grant: SpaceGrant, body: PostBody): Promise<Comment> {
  const changeRequest = body.changeRequest === undefined ? undefined : await findChangeRequest(ctx, grant.row.id, body.changeRequest, false, 'body.changeRequest');
  const revisionId = changeRequest?.revisionId ?? grant.row.revisionId;
  if (body.page === undefined) {
    if (body.node !== undefined) throw new BadRequest('body.node (target.node): a block is anchored in a page; give its page in body.page');
    if (body.tableCell !== undefined) throw new BadRequest('body.tableCell (target.tableCell): a table cell is anchored in a page; give its page in body.page');
  } else {
    // Only the page's Document is read (its block keys), not the space's.
    const { content } = await loadRevision(ctx.db, revisionId, grant.row.createdAt, { documents: false, git: false });
    const where = changeRequest ? `change request ${changeRequest.number}` : 'this space';
    const found = content.pages.find((p) => p.id === body.page);
    if (!found) throw new NotFound(`body.page: page ${body.page} not found in ${where}`);
    const page = await hydratePage(ctx.db, content, found);
    if (body.node !== undefined && !blockKeysOf(page).has(body.node)) {
      throw new NotFound(`body.node (target.node): block ${body.node} is not a block of page ${body.page} in ${where} (read the block keys from the page's document)`);
    }
  }
  const row = await insertComment(ctx, grant.row.id, { revisionId, changeRequestId: changeRequest?.id }, body);
  return viewComment(ctx, grant, row, 'markdown');
}

/**
 * The selects of a page of the space's comments, newest (or oldest) first, with the filters: the change
 * request `query.changeRequest` names (when it does), the page, its total, and the details of its comments
 * (detailSelects), as listComments reads them and listCommentsInSpace attaches them (commentsAttached).
 */
function commentsPageSelects(ctx: Ctx, spaceId: string, query: ListQuery) {
  const changeRequest = query.changeRequest === undefined ? undefined : changeRequestIdSelect(ctx, spaceId, query.changeRequest);
  const where = and(
    changeRequest ? eq(comments.changeRequestId, changeRequest) : undefined,
    eq(comments.spaceId, spaceId),
    query.status !== 'all' ? eq(comments.status, query.status) : undefined,
    query.targetPage !== undefined ? eq(comments.pageId, query.targetPage) : undefined,
    query.authors !== undefined ? inArray(comments.postedBy, query.authors.length > 0 ? query.authors : ['']) : undefined,
  );
  // Ids are time-ordered, so the id order is the posting order.
  const keys: SortKey[] = [{ column: comments.id, kind: 'string' }];
  const order = query.order ?? 'desc';
  const page = { condition: afterCursor(keys, order, query.page), limit: pageLimit(query) };
  const total = ctx.db.select({ n: count() }).from(comments).where(where);
  const paged = <Q extends PgSelect>(select: Q) => select.where(and(where, page.condition)).orderBy(...orderOf(keys, order)).limit(literalLimit(page.limit + 1));
  const rows = paged(ctx.db.select({ comment: comments, total: totalField(total) }).from(comments).$dynamic());
  const ids = paged(ctx.db.select({ id: comments.id }).from(comments).$dynamic());
  return { changeRequest, page, rows, total, details: detailSelects(ctx, ids, ids) };
}

/** listCommentsInSpace's selects (commentsPageSelects) attached to its grant. */
export function commentsAttached(ctx: Ctx, spaceId: string, query: ListQuery): AttachedRead {
  const { changeRequest, details, ...page } = commentsPageSelects(ctx, spaceId, query);
  const reads = [attachListPage('comments', page), ...detailsAttached(details)];
  return attachAll('comments', ...(changeRequest ? [attachSelect('comments_change_request', changeRequest)] : []), ...reads);
}

/** Comments of the space, newest (or oldest) first, with the filters; details read for the page at once. */
export async function listComments(ctx: Ctx, grant: SpaceGrant, query: ListQuery) {
  const { changeRequest, page, rows, total, details } = commentsPageSelects(ctx, grant.row.id, query);
  if (changeRequest && (await rowsOf(grant.attached, 'comments_change_request', changeRequest)).length === 0) {
    throw changeRequestNotFound(query.changeRequest!, 'query.changeRequest');
  }
  const { items, totalCount } = await pageOf(grant.attached, 'comments', page, rows, total);
  const cut = cutPage(items, page.limit, ({ comment }) => [comment.id]);
  const read = await readDetails(ctx, grant.attached, details);
  return {
    items: cut.rows.map(({ comment }) => toComment(ctx, comment, read, grant.role, query.format ?? 'markdown')),
    count: totalCount,
    ...(cut.next && { next: cut.next }),
  };
}

/** getCommentInSpace's reads attached to its grant: the comment and its details. */
export function commentAttached(ctx: Ctx, spaceId: string, commentId: string): AttachedRead {
  return attachAll('comment', attachSelect('comment', commentSelect(ctx, spaceId, commentId)), ...detailsAttached(detailSelects(ctx, [commentId], [commentId])));
}

/** The comment, for reading; NotFound when it is not a comment of the space. */
export async function getComment(ctx: Ctx, grant: SpaceGrant, commentId: string, format: BodyFormat): Promise<Comment> {
  const [row] = await rowsOf(grant.attached, 'comment', commentSelect(ctx, grant.row.id, commentId));
  if (!row) throw commentNotFound(commentId);
  return toComment(ctx, row, await readDetails(ctx, grant.attached, detailSelects(ctx, [commentId], [commentId])), grant.role, format);
}

/** Resolves or reopens, replaces the body (author only) and applies the caller's reactions. */
export async function updateComment(ctx: Ctx, grant: SpaceGrant, commentId: string, body: UpdateBody): Promise<Comment> {
  const row = await ctx.transaction(async (tx) => {
    const current = await requireComment(tx, grant.row.id, commentId, true);
    if (body.body !== undefined && current.postedBy !== tx.caller.userId) throw new Forbidden('body.body: only the author of a comment can change its body');
    const now = tx.now();
    await react(tx, current.id, body.addedReactions, body.removedReactions);
    const resolve = body.resolved === undefined || body.resolved === (current.status === 'resolved') ? {} : body.resolved
      ? { status: 'resolved', resolvedAt: now, resolvedBy: tx.caller.userId }
      : { status: 'open', resolvedAt: null, resolvedBy: null };
    const changes = { ...resolve, ...(body.body !== undefined && { ...storedBody(body.body, 'body.body'), editedAt: now }) };
    if (Object.keys(changes).length === 0) return current;
    const [updated] = await tx.db
      .update(comments)
      .set(changes)
      .where(eq(comments.id, current.id))
      .returning();
    return updated;
  });
  return viewComment(ctx, grant, row, 'markdown');
}

function mayDelete(ctx: Ctx, grant: SpaceGrant, postedBy: string, what: string): void {
  if (postedBy !== ctx.caller.userId && !atLeast(grant.role, 'admin')) throw new Forbidden(`Only the author of a ${what} or an admin of the space can delete it`);
}

/** Deletes a comment with its replies and all their reactions; nothing to do when it does not exist. */
export async function deleteComment(ctx: Ctx, grant: SpaceGrant, commentId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const row = await findComment(tx, grant.row.id, commentId, true);
    if (!row) return;
    mayDelete(tx, grant, row.postedBy, 'comment');
    const replyIds = tx.db.select({ id: commentReplies.id }).from(commentReplies).where(eq(commentReplies.commentId, row.id));
    await tx.db.delete(commentReactions).where(sql`${commentReactions.subjectId} = ${row.id} OR ${commentReactions.subjectId} IN (${replyIds})`);
    await tx.db.delete(comments).where(eq(comments.id, row.id));
  });
}

/**
 * The selects of a page of the replies of the comment `commentId` of the space, oldest first: the comment,
 * the page, its total and the details of its replies, as listReplies reads them and
 * listCommentRepliesInSpace attaches them (repliesAttached).
 */
function repliesPageSelects(ctx: Ctx, spaceId: string, commentId: string, query: PageRequest) {
  const where = eq(commentReplies.commentId, commentId);
  const page = directedPage([{ column: commentReplies.id }], 'asc', query);
  const total = ctx.db.select({ n: count() }).from(commentReplies).where(where);
  const paged = <Q extends PgSelect>(select: Q) => select.where(and(where, page.condition)).orderBy(...page.orderBy).limit(literalLimit(page.fetch));
  const rows = paged(ctx.db.select({ reply: commentReplies, total: totalField(total) }).from(commentReplies).$dynamic());
  const ids = paged(ctx.db.select({ id: commentReplies.id }).from(commentReplies).$dynamic());
  return { comment: commentSelect(ctx, spaceId, commentId), page, rows, total, details: detailSelects(ctx, ids, []) };
}

/** listCommentRepliesInSpace's selects (repliesPageSelects) attached to its grant. */
export function repliesAttached(ctx: Ctx, spaceId: string, commentId: string, query: PageRequest): AttachedRead {
  const { comment, details, ...page } = repliesPageSelects(ctx, spaceId, commentId, query);
  return attachAll('replies', attachSelect('comment', comment), attachListPage('replies', page), ...detailsAttached(details));
}

/** The replies of a comment, oldest first. */
export async function listReplies(ctx: Ctx, grant: SpaceGrant, commentId: string, query: PageRequest & { format?: BodyFormat }) {
  const { comment, page, rows, total, details } = repliesPageSelects(ctx, grant.row.id, commentId, query);
  if ((await rowsOf(grant.attached, 'comment', comment)).length === 0) throw commentNotFound(commentId);
  const { items, totalCount } = await pageOf(grant.attached, 'replies', page, rows, total);
  const read = await readDetails(ctx, grant.attached, details);
  return finishPage(items, page.limit, totalCount, ({ reply }) => [reply.id], ({ reply }) => toReply(ctx, grant.row.id, reply, read, grant.role, query.format ?? 'markdown'));
}

/** Posts a reply and counts it on its comment. */
export async function postReply(ctx: Ctx, grant: SpaceGrant, commentId: string, body: { body: PostBody['body'] }): Promise<CommentReply> {
  const row = await ctx.transaction(async (tx) => {
    const comment = await requireComment(tx, grant.row.id, commentId, true);
    const now = tx.now();
    const [inserted] = await tx.db
      .insert(commentReplies)
      .values({ id: newId('rpl', now.getTime()), commentId: comment.id, postedBy: tx.caller.userId, postedAt: now, ...storedBody(body.body, 'body.body') })
      .returning();
    await tx.db.update(comments).set({ replies: sql`${comments.replies} + 1` }).where(eq(comments.id, comment.id));
    return inserted;
  });
  return viewReply(ctx, grant, row, 'markdown');
}

async function requireReply(ctx: Ctx, grant: SpaceGrant, commentId: string, replyId: string): Promise<ReplyRow> {
  const comment = await requireComment(ctx, grant.row.id, commentId);
  const reply = await findReply(ctx, comment, replyId);
  if (!reply) throw replyNotFound(replyId);
  return reply;
}

/** The select of the comment `commentId` of the space (none when it is not one) with its reply `replyId` (null when it has none such). */
function replySelect(ctx: Ctx, spaceId: string, commentId: string, replyId: string) {
  return ctx.db
    .select({ commentId: comments.id, reply: commentReplies })
    .from(comments)
    .leftJoin(commentReplies, and(eq(commentReplies.id, replyId), eq(commentReplies.commentId, comments.id)))
    .where(and(eq(comments.id, commentId), eq(comments.spaceId, spaceId)));
}

/** getCommentReplyInSpace's reads attached to its grant: the reply and its details. */
export function replyAttached(ctx: Ctx, spaceId: string, commentId: string, replyId: string): AttachedRead {
  return attachAll('reply', attachSelect('reply', replySelect(ctx, spaceId, commentId, replyId)), ...detailsAttached(detailSelects(ctx, [replyId], [])));
}

/** A reply of a comment of the space. */
export async function getReply(ctx: Ctx, grant: SpaceGrant, commentId: string, replyId: string, format: BodyFormat): Promise<CommentReply> {
  const [found] = await rowsOf(grant.attached, 'reply', replySelect(ctx, grant.row.id, commentId, replyId));
  if (!found) throw commentNotFound(commentId);
  if (!found.reply) throw replyNotFound(replyId);
  return toReply(ctx, grant.row.id, found.reply, await readDetails(ctx, grant.attached, detailSelects(ctx, [replyId], [])), grant.role, format);
}

/** Replaces the body of a reply (author only) and applies the caller's reactions. */
export async function updateReply(ctx: Ctx, grant: SpaceGrant, commentId: string, replyId: string, body: UpdateReplyBody): Promise<CommentReply> {
  const row = await ctx.transaction(async (tx) => {
    const reply = await requireReply(tx, grant, commentId, replyId);
    if (body.body !== undefined && reply.postedBy !== tx.caller.userId) throw new Forbidden('body.body: only the author of a reply can change its body');
    await react(tx, reply.id, body.addedReactions, body.removedReactions);
    if (body.body === undefined) return reply;
    const [updated] = await tx.db
      .update(commentReplies)
      .set({ ...storedBody(body.body, 'body.body'), editedAt: tx.now() })
      .where(eq(commentReplies.id, reply.id))
      .returning();
    return updated;
  });
  return viewReply(ctx, grant, row, 'markdown');
}

/** Deletes a reply and uncounts it; nothing to do when the comment or the reply does not exist. */
export async function deleteReply(ctx: Ctx, grant: SpaceGrant, commentId: string, replyId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const comment = await findComment(tx, grant.row.id, commentId, true);
    const reply = comment && (await findReply(tx, comment, replyId));
    if (!comment || !reply) return;
    mayDelete(tx, grant, reply.postedBy, 'reply');
    await tx.db.delete(commentReactions).where(eq(commentReactions.subjectId, reply.id));
    await tx.db.delete(commentReplies).where(eq(commentReplies.id, reply.id));
    await tx.db.update(comments).set({ replies: sql`${comments.replies} - 1` }).where(eq(comments.id, comment.id));
  });
}
