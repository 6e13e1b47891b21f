// Reading a site's structure: the site row (locked for writes), its items (sections and groups) in tree
// order, its site spaces with the spaces they publish (one batched query), and the default pointers.
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { OrganizationGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { attachAll, attachSelect, rowsOf } from '../db/attached-select.js';
import { grantedOrganizationRole } from '../auth/granted-organization-role.js';
import { spaceRoleOf } from '../auth/grants.js';
import { asRole } from '../auth/roles.js';
import { spaceCounts } from '../change-requests/space-counts.js';
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

/** The select of all sections and groups of a site, ordered by position within their parent. */
function itemsSelect(ctx: Ctx, siteId: string) {
  return ctx.db.select().from(siteSections).where(eq(siteSections.siteId, siteId)).orderBy(asc(siteSections.position), asc(siteSections.id));
}

/** All sections and groups of a site, ordered by position within their parent. */
export async function loadItems(ctx: Ctx, siteId: string): Promise<ItemRow[]> {
  return itemsSelect(ctx, siteId);
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

/** The select of the site spaces of a site (or of the given sections only), ordered by position. */
function siteSpaceRowsSelect(ctx: Ctx, siteId: string, sectionIds?: string[]) {
  const where = and(eq(siteSpaces.siteId, siteId), sectionIds && inArray(siteSpaces.sectionId, sectionIds));
  return ctx.db.select().from(siteSpaces).where(where).orderBy(asc(siteSpaces.position), asc(siteSpaces.id));
}

/** The site spaces of a site (or of the given sections only), ordered by position. */
export async function loadSiteSpaceRows(ctx: Ctx, siteId: string, sectionIds?: string[]): Promise<SiteSpaceRow[]> {
  if (sectionIds?.length === 0) return [];
  return siteSpaceRowsSelect(ctx, siteId, sectionIds);
}

/**
 * The select of the spaces `where` picks with the caller's role on each, from their organization role
 * `orgRole` (a role, or SQL that reads it).
 */
function spacesSelect(ctx: Ctx, orgRole: string | null | SQL, where: SQL | undefined) {
  return ctx.db.select({ row: spaces, role: spaceRoleOf(ctx.caller.userId, orgRole), counts: spaceCounts() }).from(spaces).where(where);
}

type SpaceWithRole = Awaited<ReturnType<typeof spacesSelect>>[number];

/** Spaces read by spacesSelect as API objects, by id. */
function spacesById(ctx: Ctx, rows: SpaceWithRole[]): Map<string, Space> {
  return new Map(rows.map(({ row, role, counts }) => [row.id, toSpace(ctx, { ...row, ...counts }, asRole(role))]));
}

/** The spaces with the given ids, as the caller sees them, in one query. */
export async function loadSpaces(ctx: Ctx, org: OrganizationGrant, ids: string[]): Promise<Map<string, Space>> {
  if (ids.length === 0) return new Map();
  return spacesById(ctx, await spacesSelect(ctx, org.role, inArray(spaces.id, [...new Set(ids)])));
}

/** Site space rows as API objects, their spaces taken from `spaceById` and their sections from `items`. */
function siteSpaceViewsOf(ctx: Ctx, org: OrganizationGrant, site: SiteRow, rows: SiteSpaceRow[], items: ItemRow[], spaceById: Map<string, Space>): SiteSpace[] {
  const itemById = new Map(items.map((i) => [i.id, i]));
  return rows.map((row) =>
    toSiteSpace({ ctx, org: org.organization, site, section: row.sectionId ? itemById.get(row.sectionId) : undefined }, row, spaceById.get(row.spaceId)!),
  );
}

/** Site space rows as API objects (their spaces read in one query). */
export async function siteSpaceViews(ctx: Ctx, org: OrganizationGrant, site: SiteRow, rows: SiteSpaceRow[], items: ItemRow[]): Promise<SiteSpace[]> {
  return siteSpaceViewsOf(ctx, org, site, rows, items, await loadSpaces(ctx, org, rows.map((r) => r.spaceId)));
}

/** Section rows as API objects, each with its site spaces among `views`. */
function sectionViewsOf(ctx: Ctx, org: OrganizationGrant, site: SiteRow, sections: ItemRow[], views: SiteSpace[]): SiteSection[] {
  return sections.map((section) =>
    toSection(ctx, org.organization, site, section, views.filter((v) => v.section === section.id)),
  );
}

/** Section rows as API objects, each with its site spaces (two queries for all of them). */
export async function sectionViews(ctx: Ctx, org: OrganizationGrant, site: SiteRow, sections: ItemRow[]): Promise<SiteSection[]> {
  const rows = await loadSiteSpaceRows(ctx, site.id, sections.map((s) => s.id));
  return sectionViewsOf(ctx, org, site, sections, await siteSpaceViews(ctx, org, site, rows, sections));
}

/** A site's whole structure: its row, its items, its site spaces and the spaces they publish as the caller sees them. */
export interface SiteWithStructure {
  site: SiteRow;
  items: ItemRow[];
  siteSpaceRows: SiteSpaceRow[];
  spaceById: Map<string, Space>;
}

/**
 * The selects of the structure of the site `siteId` of the organization, the caller's organization role
 * being `orgRole` (a role, or SQL that reads it). As readSiteStructure reads them, and the lists of a site's
 * structure attach them (siteStructureAttached).
 */
function siteStructureSelects(ctx: Ctx, organizationId: string, siteId: string, orgRole: string | null | SQL) {
  const published = ctx.db.select({ id: siteSpaces.spaceId }).from(siteSpaces).where(eq(siteSpaces.siteId, siteId));
  return {
    site: siteSelect(ctx, organizationId, siteId),
    items: itemsSelect(ctx, siteId),
    siteSpaceRows: siteSpaceRowsSelect(ctx, siteId),
    spaces: spacesSelect(ctx, orgRole, inArray(spaces.id, published)),
  };
}

/** The structure of the site of the request, attached to its grant (attached-reads.ts). */
export const siteStructureAttached: AttachedReadOf = (params, ctx) => {
  const orgRole = grantedOrganizationRole(ctx, params.organizationId);
  if (orgRole === undefined) return undefined;
  const selects = siteStructureSelects(ctx, params.organizationId, params.siteId, orgRole);
  return attachAll(
    'site_structure',
    attachSelect('site', selects.site),
    attachSelect('site_items', selects.items),
    attachSelect('site_space_rows', selects.siteSpaceRows),
    attachSelect('site_spaces', selects.spaces),
  );
};

/** The structure of the site `siteId` of the organization (from the grant's statement when it came with it); NotFound for another site. */
export async function readSiteStructure(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SiteWithStructure> {
  const selects = siteStructureSelects(ctx, org.organization.id, siteId, org.role);
  const [site] = await rowsOf(org.attached, 'site', selects.site);
  if (!site) throw new NotFound(`Site ${siteId} not found`);
  return {
    site,
    items: await rowsOf(org.attached, 'site_items', selects.items),
    siteSpaceRows: await rowsOf(org.attached, 'site_space_rows', selects.siteSpaceRows),
    spaceById: spacesById(ctx, await rowsOf(org.attached, 'site_spaces', selects.spaces)),
  };
}

/** Site space rows of a structure as API objects. */
export function structureSiteSpaceViews(ctx: Ctx, org: OrganizationGrant, structure: SiteWithStructure, site: SiteRow, rows: SiteSpaceRow[]): SiteSpace[] {
  return siteSpaceViewsOf(ctx, org, site, rows, structure.items, structure.spaceById);
}

/** Section rows of a structure as API objects, each with its site spaces. */
export function structureSectionViews(ctx: Ctx, org: OrganizationGrant, structure: SiteWithStructure, site: SiteRow, sections: ItemRow[]): SiteSection[] {
  const ids = new Set(sections.map((s) => s.id));
  const rows = structure.siteSpaceRows.filter((row) => row.sectionId !== null && ids.has(row.sectionId));
  return sectionViewsOf(ctx, org, site, sections, siteSpaceViewsOf(ctx, org, site, rows, structure.items, structure.spaceById));
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
