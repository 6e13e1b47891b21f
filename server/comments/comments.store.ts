// Comments and replies of a space: posting (on the space, a page, a block or a table cell), editing,
// resolving, reactions, and idempotent deletes. The reply counter of a comment changes in the same
// transaction as its replies, with the comment row locked.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { commentOperations } from '../../contract/comments.js';
import type { SpaceGrant } from '../auth/access.js';
import { atLeast } from '../auth/roles.js';
import { blockKeysOf } from '../content/page-content.js';
import { hydratePage } from '../content/content-documents.js';
import { loadRevision } from '../content/revisions.store.js';
import { findChangeRequest } from '../change-requests/change-requests.store.js';
import type { Ctx } from '../context.js';
import { afterCursor, cutPage, orderOf, pageLimit, type SortKey } from '../db/cursor.js';
import { keysetPage } from '../db/paginate.js';
import { commentReactions, commentReplies, comments } from '../db/schema/index.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { storedBody, loadDetails, react, toComment, toReply, type BodyFormat, type Comment, type CommentReply, type CommentRow, type ReplyRow } from './comment-view.js';

type Ops = typeof commentOperations;
type PostBody = z.output<Ops['postCommentInSpace']['body']>;
type UpdateBody = z.output<Ops['updateCommentInSpace']['body']>;
type ListQuery = z.output<Ops['listCommentsInSpace']['query']>;
type UpdateReplyBody = z.output<Ops['updateCommentReplyInSpace']['body']>;

async function findComment(ctx: Ctx, spaceId: string, commentId: string, lock = false): Promise<CommentRow | undefined> {
  const query = ctx.db.select().from(comments).where(and(eq(comments.id, commentId), eq(comments.spaceId, spaceId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

async function requireComment(ctx: Ctx, spaceId: string, commentId: string, lock = false): Promise<CommentRow> {
  const row = await findComment(ctx, spaceId, commentId, lock);
  if (!row) throw new NotFound(`Comment ${commentId} (path.commentId) not found in this space`);
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

/** Comments of the space, newest (or oldest) first, with the filters; details loaded for the page at once. */
export async function listComments(ctx: Ctx, grant: SpaceGrant, query: ListQuery) {
  const changeRequest = query.changeRequest === undefined ? undefined : await findChangeRequest(ctx, grant.row.id, query.changeRequest, false, 'query.changeRequest');
  const where = and(
    changeRequest ? eq(comments.changeRequestId, changeRequest.id) : undefined,
    eq(comments.spaceId, grant.row.id),
    query.status !== 'all' ? eq(comments.status, query.status) : undefined,
    query.targetPage !== undefined ? eq(comments.pageId, query.targetPage) : undefined,
    query.authors !== undefined ? inArray(comments.postedBy, query.authors.length > 0 ? query.authors : ['']) : undefined,
  );
  // Ids are time-ordered, so the id order is the posting order.
  const keys: SortKey[] = [{ column: comments.id, kind: 'string' }];
  const order = query.order ?? 'desc';
  const limit = pageLimit(query);
  const rows = await ctx.db
    .select({ comment: comments, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(comments)
    .where(and(where, afterCursor(keys, order, query.page)))
    .orderBy(...orderOf(keys, order))
    .limit(limit + 1);
  const total = query.page === undefined ? (rows[0]?.total ?? 0) : await countComments(ctx, where);
  const page = cutPage(rows, limit, ({ comment }) => [comment.id]);
  const pageComments = page.rows.map((r) => r.comment);
  const details = await loadDetails(ctx, pageComments, pageComments.map((c) => c.id));
  return {
    items: pageComments.map((row) => toComment(ctx, row, details, grant.role, query.format ?? 'markdown')),
    count: total,
    ...(page.next && { next: page.next }),
  };
}

async function countComments(ctx: Ctx, where: ReturnType<typeof and>): Promise<number> {
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(comments).where(where);
  return n;
}

/** The comment, for reading; NotFound when it is not a comment of the space. */
export async function getComment(ctx: Ctx, grant: SpaceGrant, commentId: string, format: BodyFormat): Promise<Comment> {
  return viewComment(ctx, grant, await requireComment(ctx, grant.row.id, commentId), format);
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

/** The replies of a comment, oldest first. */
export async function listReplies(ctx: Ctx, grant: SpaceGrant, commentId: string, query: { page?: string; limit?: number; format?: BodyFormat }) {
  const comment = await requireComment(ctx, grant.row.id, commentId);
  const page = await keysetPage(ctx.db, commentReplies, eq(commentReplies.commentId, comment.id), [commentReplies.id], query);
  const details = await loadDetails(ctx, page.rows, []);
  return {
    items: page.rows.map((row) => toReply(ctx, grant.row.id, row, details, grant.role, query.format ?? 'markdown')),
    count: page.count,
    ...(page.next && { next: page.next }),
  };
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
  if (!reply) throw new NotFound(`Reply ${replyId} (path.commentReplyId) not found on this comment`);
  return reply;
}

/** A reply of a comment of the space. */
export async function getReply(ctx: Ctx, grant: SpaceGrant, commentId: string, replyId: string, format: BodyFormat): Promise<CommentReply> {
  return viewReply(ctx, grant, await requireReply(ctx, grant, commentId, replyId), format);
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
