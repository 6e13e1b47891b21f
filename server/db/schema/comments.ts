// Comments of a space, their replies, and the reactions to both.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { changeRequestReviews, changeRequests } from './change-requests.js';
import { oneOf } from './columns.js';
import { spaces } from './content.js';
import { users } from './core.js';

export const commentStatusValues = ['open', 'resolved'] as const;

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * What a comment and a reply both are: a body posted, and maybe edited, by a user. The body is its Document
 * (`document`, as given or read from the Markdown given) and its Markdown (`body`, '' when empty); rows
 * written before bodies kept their Document have only the Markdown.
 */
function postColumns() {
  return {
    postedBy: text('posted_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postedAt: at('posted_at').notNull(),
    editedAt: at('edited_at'),
    body: text('body').notNull(),
    document: jsonb('document').$type<unknown>(),
  };
}

export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    ...postColumns(),
    // A comment of a change request (on its content or its review) rather than of the space's content.
    changeRequestId: text('change_request_id').references(() => changeRequests.id, { onDelete: 'cascade' }),
    // The review it was posted with, if any.
    reviewId: text('review_id').references(() => changeRequestReviews.id, { onDelete: 'cascade' }),
    pageId: text('page_id'),
    nodeId: text('node_id'),
    tableRecord: text('table_record'),
    tableDefinition: text('table_definition'),
    revisionId: text('revision_id').notNull(),
    status: text('status').notNull(),
    resolvedAt: at('resolved_at'),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    // Kept in the same transaction as the replies it counts.
    replies: integer('replies').notNull().default(0),
  },
  (t) => [
    index('comments_space_idx').on(t.spaceId, t.id),
    index('comments_page_idx').on(t.spaceId, t.pageId, t.id),
    // A space's open comments, counted for every Space answered (server/change-requests/space-counts.ts) from
    // the index alone: through comments_page_idx each count read every comment of the space (a list of 100
    // spaces with 50 comments each: 35 ms of its 38).
    index('comments_space_open_idx').on(t.spaceId).where(sql`status = 'open'`),
    index('comments_change_request_idx').on(t.changeRequestId, t.status),
    check('comments_status_check', sql.raw(`status IN (${oneOf(commentStatusValues)})`)),
  ],
);

export const commentReplies = pgTable(
  'comment_replies',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    ...postColumns(),
  },
  (t) => [index('comment_replies_comment_idx').on(t.commentId, t.id)],
);

// A reaction belongs to a comment or to a reply (`subject_id`); the store deletes them with their subject.
export const commentReactions = pgTable(
  'comment_reactions',
  {
    subjectId: text('subject_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    reactedAt: at('reacted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.emoji, t.userId] })],
);
