// Redirects of a docs site (createSiteRedirect …): a source path under the site's URL and where it leads (a
// section, a site space, a page of a site space, or an external URL). A live and a draft redirect may share
// a source; only live ones are applied, by the published site and by URL resolution (server/headless/).
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { sites } from './sites.js';

export const siteRedirects = pgTable(
  'site_redirects',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    // The path as given: `/old/page`, or `/old/*` (and `/old*`) for every path it starts.
    source: text('source').notNull(),
    draft: boolean('draft').notNull().default(false),
    captureWildcard: boolean('capture_wildcard').notNull().default(false),
    permanent: boolean('permanent').notNull().default(false),
    destination: jsonb('destination').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    // Null until the redirect is first updated (the API shows no `updatedAt` before then).
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('site_redirects_source_idx').on(t.siteId, t.draft, sql`${t.source} COLLATE "C"`),
    index('site_redirects_site_created_idx').on(t.siteId, t.createdAt, t.id),
  ],
);

/**
 * Keys this server signs its own short-lived tokens with (the API tokens URL resolution hands out,
 * server/auth/site-tokens.ts): made once, on first use, and shared by every process on the database.
 */
export const signingKeys = pgTable('signing_keys', {
  name: text('name').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
