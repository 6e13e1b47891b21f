// The full-text index of the spaces' current content (server/search/search-index.ts keeps it up to date).
// One row per page (what a result shows) with a stored tsvector of the whole page under a GIN index, and
// one per section of a page with its own tsvector, read only for the pages a search returns (by primary
// key) to tell which of their sections match; beside them, each page's neighbouring-word pairs and each
// word's page count. A search never parses content.
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
  // How many pages the index holds for the space: with search_terms.pages, it tells a search whether
  // walking the pages in id order finds a page of results sooner than collecting every match.
  pages: integer('pages').notNull().default(0),
});

export const searchPages = pgTable(
  'search_pages',
  {
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    pageId: text('page_id').notNull(),
    // A hash of everything indexed for the page (title, description, path, ancestors, Markdown): unchanged
    // pages are kept.
    digest: text('digest').notNull(),
    title: text('title').notNull(),
    // The page's description ('' when it has none), shown with each result, not searched. NULL on a row
    // indexed before the column existed (migration 0053): the catch-up indexes such a page again.
    description: text('description'),
    path: text('path').notNull(),
    ancestors: jsonb('ancestors').$type<{ title: string }[]>().notNull(),
    // The whole page (title weighted A, Markdown D), written by the catch-up from the revision: a search
    // matches, counts and ranks pages on these 10,000 rows rather than on their ~3 times as many sections.
    tsv: tsvector('tsv').notNull(),
    // The title alone (small, stored in the row): the cheap ranking used when a query matches too many
    // pages to rank them all by their full text (server/search/search.ts).
    titleTsv: tsvector('title_tsv')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, title)`),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.pageId] }),
    // Without GIN's pending list (fastupdate off, migration 0060): each write indexes the few pages it changed
    // at commit (server/search/index-at-commit.ts), and entries left pending would be read by every search
    // until a vacuum merged them; so they go straight into the index.
    index('search_pages_tsv_idx').using('gin', t.tsv).with({ fastupdate: false }),
    // The pages whose title holds a word: few, even for a word on every page, so the ranking of a common
    // word reads them alone and takes the rest in id order (the search function, migration 0022).
    index('search_pages_title_tsv_idx').using('gin', t.titleTsv).with({ fastupdate: false }),
  ],
);

/**
 * The pairs of neighbouring words of each indexed page ('server respons'): a quoted phrase is looked up by
 * the pairs it needs before its word positions are checked (migration 0020 has the functions). They have a
 * table of their own so that page rows stay small: in search_pages they pushed each page's vector out of
 * the row, and every ranking and phrase check then read it back from TOAST.
 */
export const searchPagePairs = pgTable(
  'search_page_pairs',
  {
    spaceId: text('space_id').notNull(),
    pageId: text('page_id').notNull(),
    pairs: text('pairs').array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.pageId] }),
    foreignKey({ columns: [t.spaceId, t.pageId], foreignColumns: [searchPages.spaceId, searchPages.pageId], name: 'search_page_pairs_page_fk' }).onDelete('cascade'),
    index('search_page_pairs_idx').using('gin', t.pairs).with({ fastupdate: false }),
  ],
);

/**
 * How many of a space's indexed pages hold each word (lexeme): the exact count of a one-word search,
 * without visiting every matching page (a word on nearly every page of 10,000 took 3 ms on PostgreSQL and
 * 9 ms on PGlite to count). Kept in step with search_pages by the catch-up (search-index.ts).
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    lexeme: text('lexeme').notNull(),
    pages: integer('pages').notNull(),
  },
  // By word, for the organization search: the spaces holding each word of a query and how many pages hold
  // it there, from the index alone (migration 0058).
  (t) => [primaryKey({ columns: [t.spaceId, t.lexeme] }), index('search_terms_lexeme_idx').on(t.lexeme, t.spaceId, t.pages)],
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
  ],
);
