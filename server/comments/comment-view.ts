// API forms of comments and replies. What they show besides their own row (authors, reactions with their
// users, repliers) is read for a whole page of items at once: a few queries per list, never one per item;
// the reads select it from the items' ids alone, in the statement of their grant (detailSelects).
import { and, count, eq, inArray, max, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { attachSelect, rowsOf, type AttachedRead } from '../db/attached-select.js';
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import { assertStorableDocument } from '../content/document-check.js';
import { upgradeDocument } from '../content/document-upgrade.js';
import { documentToMarkdown, markdownToDocument, type Document } from '../content/markdown-document.js';
import type { Ctx } from '../context.js';
import { commentReactions, commentReplies, comments, users } from '../db/schema/index.js';
import { toUser, type User } from '../users/users.store.js';

export type Comment = components['schemas']['Comment'];
export type CommentReply = components['schemas']['CommentReply'];
type Body = components['schemas']['MarkdownOrDocument'];
type BodyIn = Record<string, never> | { markdown: string } | { document: Document };
export type CommentRow = typeof comments.$inferSelect;
export type ReplyRow = typeof commentReplies.$inferSelect;
export type BodyFormat = 'markdown' | 'document' | undefined;

/** What a comment or reply stores of a body given as Markdown, a document, or empty (`at` names it in errors). */
export function storedBody(body: BodyIn, at: string): { body: string; document: Document | null } {
  // Markdown is stored as given; its Document is read from it when asked for.
  if ('markdown' in body) return { body: body.markdown, document: null };
  if ('document' in body) {
    assertStorableDocument(body.document, `${at}.document`);
    return { body: documentToMarkdown(body.document), document: body.document as Document };
  }
  return { body: '', document: null };
}

function toBody(row: { body: string; document: unknown }, format: BodyFormat): Body {
  if (row.body === '' && row.document === null) return {};
  // A Document whose Markdown is empty (empty paragraphs, blocks Markdown cannot write) has no Markdown body.
  if (format !== 'document') return row.body === '' ? {} : { markdown: row.body };
  return { document: (row.document ? upgradeDocument(row.document as Document) : markdownToDocument(row.body)) as unknown as components['schemas']['Document'] };
}

export interface Details {
  users: Map<string, User>;
  reactions: Map<string, Comment['reactions']>;
  repliers: Map<string, Comment['repliers']>;
}

/** The reactions to the comments and replies `subjects`, in the order they were made. */
function reactionsSelect(ctx: Ctx, subjects: Ids) {
  return ctx.db.select().from(commentReactions).where(inArray(commentReactions.subjectId, subjects)).orderBy(commentReactions.reactedAt, commentReactions.userId);
}

/** Who replied to the comments `commentIds`: per comment and replier, how many replies and the latest's time. */
function repliersSelect(ctx: Ctx, commentIds: Ids) {
  return ctx.db
    .select({ commentId: commentReplies.commentId, userId: commentReplies.postedBy, count: count(), updatedAt: max(commentReplies.postedAt) })
    .from(commentReplies)
    .where(inArray(commentReplies.commentId, commentIds))
    .groupBy(commentReplies.commentId, commentReplies.postedBy);
}

type ReactionRow = Awaited<ReturnType<typeof reactionsSelect>>[number];
type ReplierRow = Awaited<ReturnType<typeof repliersSelect>>[number];

/** Ids to read details for: given, or as a select of them (read in the same statement). */
type Ids = string[] | SQLWrapper;

/**
 * The selects of the details of the comments and replies `subjects`, `commentIds` being the comments among
 * them (whose repliers show): their reactions, their repliers, and the users those name with the subjects'
 * authors and resolvers. Each follows from the ids alone, so all can be read in the statement that reads
 * the subjects (attached-select.ts) as readDetails does.
 */
export function detailSelects(ctx: Ctx, subjects: Ids, commentIds: Ids) {
  const named = (column: AnyPgColumn, table: PgTable, where: SQL) => inArray(users.id, ctx.db.select({ id: column }).from(table).where(where));
  const people = or(
    named(comments.postedBy, comments, inArray(comments.id, subjects)),
    named(comments.resolvedBy, comments, inArray(comments.id, subjects)),
    named(commentReplies.postedBy, commentReplies, inArray(commentReplies.id, subjects)),
    named(commentReactions.userId, commentReactions, inArray(commentReactions.subjectId, subjects)),
    named(commentReplies.postedBy, commentReplies, inArray(commentReplies.commentId, commentIds)),
  );
  return { reactions: reactionsSelect(ctx, subjects), repliers: repliersSelect(ctx, commentIds), users: ctx.db.select().from(users).where(people) };
}

/** The details `detailSelects` selects: from the grant's statement (`attached`) when they came with it, else read now. */
export async function readDetails(ctx: Ctx, attached: Record<string, unknown> | undefined, selects: ReturnType<typeof detailSelects>): Promise<Details> {
  const reactionRows = await rowsOf(attached, 'comment_reactions', selects.reactions);
  const replierRows = await rowsOf(attached, 'comment_repliers', selects.repliers);
  return detailsOf(ctx, reactionRows, replierRows, await rowsOf(attached, 'comment_users', selects.users));
}

/** `detailSelects` attached under the names readDetails reads them by. */
export function detailsAttached(selects: ReturnType<typeof detailSelects>): AttachedRead[] {
  return [attachSelect('comment_reactions', selects.reactions), attachSelect('comment_repliers', selects.repliers), attachSelect('comment_users', selects.users)];
}

/** Authors, reactions and repliers of the given comments and replies, in three queries whatever their number. */
export async function loadDetails(ctx: Ctx, rows: { id: string; postedBy: string; resolvedBy?: string | null }[], commentIds: string[]): Promise<Details> {
  const ids = rows.map((r) => r.id);
  const reactionRows = ids.length === 0 ? [] : await reactionsSelect(ctx, ids);
  const replierRows = commentIds.length === 0 ? [] : await repliersSelect(ctx, commentIds);
  const userIds = new Set<string>([
    ...rows.flatMap((r) => [r.postedBy, ...(r.resolvedBy ? [r.resolvedBy] : [])]),
    ...reactionRows.map((r) => r.userId),
    ...replierRows.map((r) => r.userId),
  ]);
  const userRows = userIds.size === 0 ? [] : await ctx.db.select().from(users).where(inArray(users.id, [...userIds]));
  return detailsOf(ctx, reactionRows, replierRows, userRows);
}

/** The details from their rows. */
function detailsOf(ctx: Ctx, reactionRows: ReactionRow[], replierRows: ReplierRow[], userRows: (typeof users.$inferSelect)[]): Details {
  const usersById = new Map(userRows.map((u) => [u.id, toUser(u, ctx.urls)]));
  const reactions = new Map<string, Comment['reactions']>();
  for (const r of reactionRows) {
    const list = reactions.get(r.subjectId) ?? [];
    let entry = list.find((e) => e.emoji === r.emoji);
    if (!entry) list.push((entry = { emoji: r.emoji, count: 0, users: [] }));
    entry.count += 1;
    entry.users.push({ user: usersById.get(r.userId)!, reactedAt: r.reactedAt.toISOString() });
    reactions.set(r.subjectId, list);
  }
  const repliers = new Map<string, Comment['repliers']>();
  for (const r of replierRows) {
    const list = repliers.get(r.commentId) ?? [];
    list.push({ updatedAt: new Date(r.updatedAt ?? 0).toISOString(), count: Number(r.count), user: usersById.get(r.userId)! });
    repliers.set(r.commentId, list);
  }
  for (const list of repliers.values()) list.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  return { users: usersById, reactions, repliers };
}

function permissions(ctx: Ctx, role: Role | null, postedBy: string) {
  const mine = postedBy === ctx.caller.userId;
  return { view: true, edit: mine, reply: atLeast(role, 'comment'), delete: mine || atLeast(role, 'admin') };
}

/** The API form of a comment, from its row and the loaded details. */
export function toComment(ctx: Ctx, row: CommentRow, details: Details, role: Role | null, format: BodyFormat): Comment {
  return {
    object: 'comment',
    id: row.id,
    postedBy: details.users.get(row.postedBy)!,
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt && { editedAt: row.editedAt.toISOString() }),
    reactions: details.reactions.get(row.id) ?? [],
    replies: row.replies,
    repliers: details.repliers.get(row.id) ?? [],
    body: toBody(row, format),
    target: {
      ...(row.nodeId && { node: { id: row.nodeId } }),
      ...(row.tableRecord && row.tableDefinition && { tableCell: { record: row.tableRecord, definition: row.tableDefinition } }),
      ...(row.changeRequestId && { changeRequest: row.changeRequestId }),
      ...(row.reviewId && { review: row.reviewId }),
      ...(row.pageId && { page: { id: row.pageId } }),
      space: row.spaceId,
      revision: row.revisionId,
    },
    urls: { location: ctx.urls.api(`/spaces/${row.spaceId}/comments/${row.id}`) },
    permissions: permissions(ctx, role, row.postedBy),
    status: row.status as Comment['status'],
    ...(row.resolvedAt && { resolvedAt: row.resolvedAt.toISOString() }),
    ...(row.resolvedBy && details.users.has(row.resolvedBy) && { resolvedBy: details.users.get(row.resolvedBy)! }),
  };
}

/** The API form of a reply, from its row and the loaded details. */
export function toReply(ctx: Ctx, spaceId: string, row: ReplyRow, details: Details, role: Role | null, format: BodyFormat): CommentReply {
  return {
    object: 'comment-reply',
    id: row.id,
    postedBy: details.users.get(row.postedBy)!,
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt && { editedAt: row.editedAt.toISOString() }),
    reactions: details.reactions.get(row.id) ?? [],
    body: toBody(row, format),
    urls: { location: ctx.urls.api(`/spaces/${spaceId}/comments/${row.commentId}/replies/${row.id}`) },
    permissions: permissions(ctx, role, row.postedBy),
  };
}

/** Adds and removes the caller's reactions to a comment or reply (adding one twice keeps one). */
export async function react(tx: Ctx, subjectId: string, added: string[] | undefined, removed: string[] | undefined): Promise<void> {
  const userId = tx.caller.userId;
  if (added && added.length > 0) {
    const now = tx.now();
    await tx.db
      .insert(commentReactions)
      .values([...new Set(added)].map((emoji) => ({ subjectId, userId, emoji, reactedAt: now })))
      .onConflictDoNothing();
  }
  if (removed && removed.length > 0) {
    await tx.db
      .delete(commentReactions)
      .where(and(eq(commentReactions.subjectId, subjectId), eq(commentReactions.userId, userId), inArray(commentReactions.emoji, removed)));
  }
}
