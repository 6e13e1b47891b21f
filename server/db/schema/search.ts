// The full-text index of the spaces' current content (server/search/search-index.ts keeps it up to date).
// One row per page (what a result shows) and one per section of a page, with a stored tsvector under a
// GIN index, so a search reads the matching sections instead of parsing every page of the space.
import { sql } from 'drizzle-orm';
import { customType, foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { spaces } from './content.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Which revision of each space the index holds. */
export const searchIndexState = pgTable('search_index_state', {
  spaceId: text('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  revisionId: text('revision_id').notNull(),
});

export const searchPages = pgTable(
  'search_pages',
  {
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    pageId: text('page_id').notNull(),
    // A hash of everything indexed for the page (title, path, ancestors, Markdown): unchanged pages are kept.
    digest: text('digest').notNull(),
    title: text('title').notNull(),
    path: text('path').notNull(),
    ancestors: jsonb('ancestors').$type<{ title: string }[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.pageId] })],
);

export const searchSections = pgTable(
  'search_sections',
  {
    spaceId: text('space_id').notNull(),
    pageId: text('page_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    // '' for the text before the first heading; else the heading's slug.
    sectionId: text('section_id').notNull(),
    title: text('title').notNull(),
    // What the title weight (A) covers: the page title, and the heading for a section under one.
    rankedTitle: text('ranked_title').notNull(),
    body: text('body').notNull(),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(sql`setweight(to_tsvector('english'::regconfig, ranked_title), 'A') || to_tsvector('english'::regconfig, body)`),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.pageId, t.ordinal] }),
    foreignKey({ columns: [t.spaceId, t.pageId], foreignColumns: [searchPages.spaceId, searchPages.pageId], name: 'search_sections_page_fk' }).onDelete('cascade'),
    // GIN over the sections of every space: a search filters its space after the index lookup (btree_gin
    // would put the space in the index too, but is an extension the embedded storage does not load).
    index('search_sections_tsv_idx').using('gin', t.tsv),
  ],
);
