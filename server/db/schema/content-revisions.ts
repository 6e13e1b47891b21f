// Revisions of space content: immutable snapshots of the page tree, the files, the variables and the
// reusable contents of a space (or of a change request), stored as one JSON document naming the chunks of
// its page list by hash; the chunks, and the pages' Documents, are stored apart, once each, in
// content_documents (docs/content.md, "How revisions are stored").
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { spaces } from './content.js';

export const revisionTypeValues = ['edits', 'merge', 'rollback', 'update', 'computed'] as const;

export const contentRevisions = pgTable(
  'content_revisions',
  {
    id: text('id').primaryKey(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    parents: jsonb('parents').$type<string[]>().notNull(),
    type: text('type').notNull(),
    // The snapshot (see server/content/revision-content.ts): never updated once written.
    content: jsonb('content').$type<unknown>().notNull(),
    // Git metadata (server/git-sync/revision-git.ts): the commit it was imported from or exported to, and
    // where its pages and files are in that commit. Mutable: an export sets it on the revision it pushed.
    git: jsonb('git').$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('content_revisions_space_idx').on(t.spaceId, t.id),
    check('content_revisions_type_check', sql.raw(`type IN (${oneOf(revisionTypeValues)})`)),
  ],
);

/**
 * Content-addressed JSON by its SHA-256: page Documents (server/content/content-documents.ts) and chunks of
 * revisions' page lists (server/content/page-chunks.ts). Written with ON CONFLICT DO NOTHING, never updated
 * nor deleted, so a revision that changes one page writes one Document and one chunk, and any process may
 * cache them by hash.
 */
export const contentDocuments = pgTable('content_documents', {
  hash: text('hash').primaryKey(),
  document: jsonb('document').$type<unknown>().notNull(),
});
