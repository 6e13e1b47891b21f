// Reading a site's structure: the site row (locked for writes), its items (sections and groups) in tree
// order, its site spaces with the spaces they publish (one batched query), and the default pointers.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../auth/attached-select.js';
import { spaceRoleOf } from '../auth/grants.js';
import { asRole } from '../auth/roles.js';
import { spaceCountFields } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';
import { siteSections, sites, siteSpaces, spaces } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { toSpace, type Space } from '../spaces/space-view.js';
import { toSection, toSiteSpace, type ItemRow, type SiteRow, type SiteSection, type SiteSpace, type SiteSpaceRow } from './site-view.js';

/** The select of the site `siteId` of the organization, as requireSite reads it (and a read of the site attaches it: server/attached-reads.ts). */
export function siteSelect(ctx: Ctx, organizationId: string, siteId: string) {
  return ctx.db.select().from(sites).where(and(eq(sites.id, siteId), eq(sites.organizationId, organizationId)));
}

/** The site `siteId` of the organization; throws NotFound otherwise. `lock` holds its row until the transaction ends. */
export async function requireSite(ctx: Ctx, organizationId: string, siteId: string, lock = false): Promise<SiteRow> {
  const query = siteSelect(ctx, organizationId, siteId);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new NotFound(`Site ${siteId} not found`);
  return row;
}

/** As requireSite, from the grant's statement when the operation attached siteSelect there (under `site`). */
export async function requireGrantedSite(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SiteRow> {
  const [row] = await rowsOf<SiteRow>(org.attached, 'site', siteSelect(ctx, org.organization.id, siteId));
  if (!row) throw new NotFound(`Site ${siteId} not found`);
  return row;
}

/** A live space of the organization; throws NotFound naming `field` otherwise. */
export async function requireSpace(ctx: Ctx, organizationId: string, spaceId: string, field: string) {
  const [row] = await ctx.db
    .select({ id: spaces.id })
    .from(spaces)
    .where(and(eq(spaces.id, spaceId), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt)));
  if (!row) throw new NotFound(`${field}: space ${spaceId} not found in this organization`);
  return row;
}

/** All sections and groups of a site, ordered by position within their parent. */
export async function loadItems(ctx: Ctx, siteId: string): Promise<ItemRow[]> {
  return ctx.db.select().from(siteSections).where(eq(siteSections.siteId, siteId)).orderBy(asc(siteSections.position), asc(siteSections.id));
}

/** The items depth first, each parent before its children, siblings in their order. */
export function treeOrder(items: ItemRow[]): ItemRow[] {
  const children = new Map<string | null, ItemRow[]>();
  for (const item of items) {
    const list = children.get(item.parentId) ?? [];
    list.push(item);
    children.set(item.parentId, list);
  }
  const out: ItemRow[] = [];
  const visit = (parent: string | null) => {
    for (const item of children.get(parent) ?? []) {
      out.push(item);
      if (item.kind === 'group') visit(item.id);
    }
  };
  visit(null);
  return out;
}

/** The site spaces of a site (or of the given sections only), ordered by position. */
export async function loadSiteSpaceRows(ctx: Ctx, siteId: string, sectionIds?: string[]): Promise<SiteSpaceRow[]> {
  if (sectionIds?.length === 0) return [];
  const where = and(eq(siteSpaces.siteId, siteId), sectionIds && inArray(siteSpaces.sectionId, sectionIds));
  return ctx.db.select().from(siteSpaces).where(where).orderBy(asc(siteSpaces.position), asc(siteSpaces.id));
}

/** The spaces with the given ids, as the caller sees them, in one query. */
export async function loadSpaces(ctx: Ctx, org: OrganizationGrant, ids: string[]): Promise<Map<string, Space>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ row: spaces, role: spaceRoleOf(ctx.caller.userId, org.role), counts: spaceCountFields() })
    .from(spaces)
    .where(inArray(spaces.id, [...new Set(ids)]));
  return new Map(rows.map(({ row, role, counts }) => [row.id, toSpace(ctx, { ...row, ...counts }, asRole(role))]));
}

/** Site space rows as API objects (their spaces read in one query). */
export async function siteSpaceViews(ctx: Ctx, org: OrganizationGrant, site: SiteRow, rows: SiteSpaceRow[], items: ItemRow[]): Promise<SiteSpace[]> {
  const spaceById = await loadSpaces(ctx, org, rows.map((r) => r.spaceId));
  const itemById = new Map(items.map((i) => [i.id, i]));
  return rows.map((row) =>
    toSiteSpace({ ctx, org: org.organization, site, section: row.sectionId ? itemById.get(row.sectionId) : undefined }, row, spaceById.get(row.spaceId)!),
  );
}

/** Section rows as API objects, each with its site spaces (two queries for all of them). */
export async function sectionViews(ctx: Ctx, org: OrganizationGrant, site: SiteRow, sections: ItemRow[]): Promise<SiteSection[]> {
  const rows = await loadSiteSpaceRows(ctx, site.id, sections.map((s) => s.id));
  const views = await siteSpaceViews(ctx, org, site, rows, sections);
  return sections.map((section) =>
    toSection(ctx, org.organization, site, section, views.filter((v) => v.section === section.id)),
  );
}

/** One section of the site as an API object; throws NotFound when it is not one. */
export async function sectionView(ctx: Ctx, org: OrganizationGrant, site: SiteRow, sectionId: string): Promise<SiteSection> {
  const [section] = await ctx.db
    .select()
    .from(siteSections)
    .where(and(eq(siteSections.id, sectionId), eq(siteSections.siteId, site.id), eq(siteSections.kind, 'section')));
  if (!section) throw new NotFound(`Site section ${sectionId} not found`);
  return (await sectionViews(ctx, org, site, [section]))[0];
}

/**
 * Keeps the default pointers valid after a change of the structure: a section without a (valid) default
 * site space takes its first one, and likewise the site's root site spaces and its sections.
 */
export async function repairDefaults(tx: Ctx, siteId: string): Promise<void> {
  await repairDefaultsOfSites(tx, [siteId]);
}

/** repairDefaults for several sites at once, in the same two statements whatever their number. */
export async function repairDefaultsOfSites(tx: Ctx, siteIds: string[]): Promise<void> {
  if (siteIds.length === 0) return;
  const ids = sql.join(siteIds.map((id) => sql`${id}`), sql`, `);
  await queryRows(
    tx.db,
    sql`UPDATE site_sections s SET default_site_space_id =
          (SELECT ss.id FROM site_spaces ss WHERE ss.section_id = s.id ORDER BY ss.position COLLATE "C", ss.id LIMIT 1)
        WHERE s.site_id IN (${ids}) AND s.kind = 'section' AND (s.default_site_space_id IS NULL
          OR NOT EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.id = s.default_site_space_id AND ss.section_id = s.id))`,
  );
  await queryRows(
    tx.db,
    sql`UPDATE sites t SET
          default_site_space_id = CASE WHEN EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.id = t.default_site_space_id
              AND ss.site_id = t.id AND ss.section_id IS NULL) THEN t.default_site_space_id
            ELSE (SELECT ss.id FROM site_spaces ss WHERE ss.site_id = t.id AND ss.section_id IS NULL
              ORDER BY ss.position COLLATE "C", ss.id LIMIT 1) END,
          default_section_id = CASE WHEN EXISTS (SELECT 1 FROM site_sections s WHERE s.id = t.default_section_id
              AND s.site_id = t.id AND s.kind = 'section') THEN t.default_section_id
            ELSE (SELECT s.id FROM site_sections s WHERE s.site_id = t.id AND s.kind = 'section'
              ORDER BY s.position COLLATE "C", s.id LIMIT 1) END
        WHERE t.id IN (${ids})`,
  );
}

/** Lowercase words joined by dashes, for default paths. */
export function slug(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'content';
}

/** The last position among the site spaces of a section (or of the root). */
export async function lastSiteSpaceKey(tx: Ctx, siteId: string, sectionId: string | null): Promise<string | null> {
  const [row] = await tx.db
    .select({ key: sql<string | null>`max(${siteSpaces.position})` })
    .from(siteSpaces)
    .where(and(eq(siteSpaces.siteId, siteId), sectionId === null ? isNull(siteSpaces.sectionId) : eq(siteSpaces.sectionId, sectionId)));
  return row?.key ?? null;
}

/** The last position among the items of a parent group (or of the root). */
export async function lastItemKey(tx: Ctx, siteId: string, parentId: string | null): Promise<string | null> {
  const [row] = await tx.db
    .select({ key: sql<string | null>`max(${siteSections.position})` })
    .from(siteSections)
    .where(and(eq(siteSections.siteId, siteId), parentId === null ? isNull(siteSections.parentId) : eq(siteSections.parentId, parentId)));
  return row?.key ?? null;
}
