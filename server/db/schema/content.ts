// The content tree: collections (which nest) and spaces, ordered among the items of their parent.
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, orderKey, updatedAt } from './columns.js';
import { organizations } from './core.js';
import { defaultLevelValues, editModeValues, spaceVisibilityValues } from './enums.js';

export const collections = pgTable(
  'collections',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // Nested collections go with their parent (the store moves their spaces to the trash first).
    parentId: text('parent_id').references((): AnyPgColumn => collections.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    // A role, null (nothing: only those granted reach it) or `inherit` (docs/permissions.md).
    defaultLevel: text('default_level').default('inherit'),
    // Order among the items (spaces and collections) of the same parent.
    position: orderKey('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('collections_org_idx').on(t.organizationId, t.id),
    index('collections_parent_idx').on(t.parentId, t.position, t.id),
    check('collections_default_level_check', sql.raw(`default_level IN (${oneOf(defaultLevelValues)})`)),
  ],
);

export const spaces = pgTable(
  'spaces',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: text('parent_id').references(() => collections.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    emoji: text('emoji').notNull(),
    visibility: text('visibility').notNull(),
    editMode: text('edit_mode').notNull(),
    mergeRules: jsonb('merge_rules').$type<unknown>().notNull(),
    language: text('language'),
    revisionId: text('revision_id').notNull(),
    // A role, null (nothing: only those granted reach it) or `inherit` (docs/permissions.md).
    defaultLevel: text('default_level').default('inherit'),
    position: orderKey('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    // Its Git Sync, once an import or export was requested (server/git-sync/sync-record.ts): never credentials.
    gitSync: jsonb('git_sync').$type<unknown>(),
  },
  (t) => [
    index('spaces_org_idx').on(t.organizationId, t.id),
    index('spaces_parent_idx').on(t.parentId, t.position, t.id),
    // The purge job finds spaces deleted long ago without reading the live ones.
    index('spaces_deleted_idx').on(t.deletedAt).where(sql`deleted_at IS NOT NULL`),
    check('spaces_visibility_check', sql.raw(`visibility IN (${oneOf(spaceVisibilityValues)})`)),
    check('spaces_edit_mode_check', sql.raw(`edit_mode IN (${oneOf(editModeValues)})`)),
    check('spaces_default_level_check', sql.raw(`default_level IN (${oneOf(defaultLevelValues)})`)),
  ],
);
