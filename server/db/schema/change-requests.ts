// Change requests: proposed content of a space, numbered 1, 2, … within the space.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, updatedAt } from './columns.js';
import { spaces } from './content.js';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('change_requests_space_number_key').on(t.spaceId, t.number),
    index('change_requests_space_list_idx').on(t.spaceId, t.status, t.updatedAt, t.id),
    index('change_requests_org_list_idx').on(t.organizationId, t.status, t.updatedAt, t.id),
    check('change_requests_status_check', sql.raw(`status IN (${oneOf(changeRequestStatusValues)})`)),
  ],
);
