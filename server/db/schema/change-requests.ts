// Change requests: proposed content of a space, numbered 1, 2, … within the space.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, updatedAt } from './columns.js';
import { spaces } from './content.js';
import { issueClusters } from './conversations.js';
import { organizations, users } from './core.js';

export const changeRequestStatusValues = ['draft', 'open', 'archived', 'merged'] as const;

export const changeRequests = pgTable(
  'change_requests',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    status: text('status').notNull(),
    subject: text('subject'),
    description: jsonb('description').$type<unknown>(),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Users who wrote content in it (the creator included once they edit), for the contributor filter.
    contributors: jsonb('contributors').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    revisionId: text('revision_id').notNull(),
    revisionInitial: text('revision_initial').notNull(),
    revisionMergedAncestor: text('revision_merged_ancestor'),
    revisionMerged: text('revision_merged'),
    // The conversations issues cluster it addresses (read by the insights of the cluster); unset when the cluster goes.
    conversationsIssuesClusterId: text('conversations_issues_cluster_id').references(() => issueClusters.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('change_requests_space_number_key').on(t.spaceId, t.number),
    index('change_requests_space_list_idx').on(t.spaceId, t.status, t.updatedAt, t.id),
    index('change_requests_org_list_idx').on(t.organizationId, t.status, t.updatedAt, t.id),
    index('change_requests_cluster_idx').on(t.conversationsIssuesClusterId),
    check('change_requests_status_check', sql.raw(`status IN (${oneOf(changeRequestStatusValues)})`)),
  ],
);

export const changeRequestReviewStatusValues = ['approved', 'changes-requested'] as const;

// Users asked to review a change request; asking again renews the request (its revision and requester).
export const changeRequestReviewers = pgTable(
  'change_request_reviewers',
  {
    changeRequestId: text('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: text('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revisionId: text('revision_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.changeRequestId, t.userId] }), index('change_request_reviewers_user_idx').on(t.userId)],
);

// Reviews submitted on a change request, each against the revision the change request had then.
export const changeRequestReviews = pgTable(
  'change_request_reviews',
  {
    id: text('id').primaryKey(),
    changeRequestId: text('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    reviewerId: text('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull(),
    revisionId: text('revision_id').notNull(),
    // The comment posted with the review, if any (a comment targeting the review).
    commentId: text('comment_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('change_request_reviews_list_idx').on(t.changeRequestId, t.createdAt, t.id),
    check('change_request_reviews_status_check', sql.raw(`status IN (${oneOf(changeRequestReviewStatusValues)})`)),
  ],
);
