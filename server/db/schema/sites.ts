// Docs sites: the site, its structure items (sections and section groups, ordered together among the
// items of their parent group) and its site spaces (spaces published at a path, in a section or at the root).
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, orderKey, updatedAt } from './columns.js';
import { spaces } from './content.js';
import { organizations } from './core.js';

const siteTypeValues = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'];
const siteVisibilityValues = ['public', 'unlisted', 'share-link', 'visitor-auth'];

export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    visibility: text('visibility').notNull(),
    basename: text('basename'),
    // Custom hostnames are global: one site per hostname.
    hostname: text('hostname').unique(),
    // A domain plus a sub-path the site is served from through a reverse proxy.
    proxy: text('proxy'),
    published: boolean('published').notNull().default(false),
    agentsContext: text('agents_context').notNull().default('included'),
    adaptiveEnabled: boolean('adaptive_enabled').notNull().default(false),
    adaptiveSchema: jsonb('adaptive_schema').$type<Record<string, unknown>>(),
    adaptiveSchemaUpdatedAt: timestamp('adaptive_schema_updated_at', { withTimezone: true, mode: 'date' }),
    // The secret of share-link sites: part of their published URL (server/published/), and checked by the
    // published-profile read.
    shareKey: text('share_key').notNull(),
    // The key visitor JWTs of `visitor-auth` sites are signed with (HS256), shown to admins by the
    // publishing-auth operations; null for sites made before it existed, until it is first read.
    visitorAuthKey: text('visitor_auth_key'),
    // Where a visitor without a valid token is sent (publishing-auth `fallbackURL`).
    visitorAuthFallbackUrl: text('visitor_auth_fallback_url'),
    // Where a visitor is sent once signed out of the site (publishing-auth `logoutURL`).
    visitorAuthLogoutUrl: text('visitor_auth_logout_url'),
    // Who signs visitor tokens (publishing-auth `backend`): `custom`, or `integration` (the installed integration
    // with `site:visitor:auth`, through its fetch_visitor_authentication).
    visitorAuthBackend: text('visitor_auth_backend').$type<'custom' | 'integration'>().notNull().default('custom'),
    // The stored customization (updateSiteCustomizationById), merged over the defaults when read.
    customization: jsonb('customization').$type<Record<string, unknown>>(),
    // Both defaults are kept valid by the store (re-chosen when the default item is removed).
    defaultSectionId: text('default_section_id').references((): AnyPgColumn => siteSections.id, { onDelete: 'set null' }),
    defaultSiteSpaceId: text('default_site_space_id').references((): AnyPgColumn => siteSpaces.id, { onDelete: 'set null' }),
    // What a served page of the site is made of, in one value: made again (a random one) by the database's
    // triggers at every change of the row, its sections, its site spaces and their spaces' title, current
    // revision and trash state, its live redirects, its organization's hostname and the scripts installed on
    // it (migration 0045), whoever writes. The published site and URL resolution keep what they read of a
    // site under it and read it on every request (server/published/site-data.ts).
    servedStamp: text('served_stamp').notNull().default(sql`gen_random_uuid()::text`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sites_org_idx').on(t.organizationId, t.id),
    check('sites_type_check', sql.raw(`type IN (${oneOf(siteTypeValues)})`)),
    check('sites_visibility_check', sql.raw(`visibility IN (${oneOf(siteVisibilityValues)})`)),
    check('sites_agents_context_check', sql.raw(`agents_context IN ('excluded', 'included')`)),
  ],
);

/** Sections and section groups in one table, so that siblings of either kind share one order. */
export const siteSections = pgTable(
  'site_sections',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    // The enclosing section group; null at the root of the site. The store lifts children out of a
    // deleted group before deleting it, so the cascade only applies with the whole site.
    parentId: text('parent_id').references((): AnyPgColumn => siteSections.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    icon: text('icon'),
    description: text('description'),
    path: text('path'),
    condition: text('condition'),
    defaultSiteSpaceId: text('default_site_space_id').references((): AnyPgColumn => siteSpaces.id, { onDelete: 'set null' }),
    position: orderKey('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('site_sections_parent_idx').on(t.siteId, t.parentId, t.position, t.id),
    index('site_sections_site_idx').on(t.siteId, t.kind, t.id),
    check('site_sections_kind_check', sql.raw(`kind IN ('section', 'group')`)),
  ],
);

export const siteSpaces = pgTable(
  'site_spaces',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    // null: at the root of the site.
    sectionId: text('section_id').references((): AnyPgColumn => siteSections.id, { onDelete: 'cascade' }),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    condition: text('condition'),
    // The fields of the site's customization this site space overrides (overrideSiteSpaceCustomizationById);
    // null: none.
    customization: jsonb('customization').$type<Record<string, unknown>>(),
    // One order for all site spaces of a site, so the list is (position, id) and each section's
    // site spaces are in their order within it.
    position: orderKey('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('site_spaces_site_position_idx').on(t.siteId, t.position, t.id),
    index('site_spaces_section_idx').on(t.sectionId),
    index('site_spaces_space_idx').on(t.spaceId),
  ],
);
