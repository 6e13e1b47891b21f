// Docs sites: creation with their first site spaces, settings, publication and deletion.
import { randomBytes } from 'node:crypto';
import { and, count, eq, ilike, inArray, isNull, not, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteOperations } from '../../contract/sites.js';
import type { OrganizationGrant } from '../auth/access.js';
import { pageOf, rowsOf } from '../db/attached-select.js';
import { keyAfter } from '../content/order-keys.js';
import type { Ctx } from '../context.js';
import { whenUniqueViolation } from '../db/errors.js';
import { organizations, siteSections, sites, siteSpaces, spaces } from '../db/schema/index.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { containsPattern, directedPage, finishPage, totalField } from '../members/directed-page.js';
import { newVisitorKey } from './publishing-auth.js';
import { repairDefaults, requireSite, slug } from './structure.js';
import { toSite, type Site, type SiteRow } from './site-view.js';
import { factsOf, siteFactFields } from './site-features.js';
import { asRole, strongest } from '../auth/roles.js';
import { literalLimit } from '../db/literal-limit.js';

type ListQuery = z.output<typeof siteOperations.listSites.query>;
type CreateSite = z.output<typeof siteOperations.createSite.body>;
type UpdateSite = z.output<typeof siteOperations.updateSiteById.body>;

/** A site as the API shows it to the caller of `org`, with its facts (site spaces, sections, redirects) read now. */
export async function siteView(ctx: Ctx, org: OrganizationGrant, row: SiteRow): Promise<Site> {
  const [facts] = await ctx.db.select(siteFactFields()).from(sites).where(eq(sites.id, row.id));
  return toSite(ctx, org.organization, row, factsOf(facts), callerSiteRole(org));
}

/** The caller's role on the site of `org`: the grant's on that site when it read one, else their organization role. */
function callerSiteRole(org: OrganizationGrant) {
  return org.siteRole !== undefined ? org.siteRole : org.role;
}

/** The select of the site `siteId` of the organization with its facts, as getSite reads it (and getSiteById attaches it: server/attached-reads.ts). */
export function siteWithFactsSelect(ctx: Ctx, organizationId: string, siteId: string) {
  return ctx.db
    .select({ site: sites, ...siteFactFields() })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.organizationId, organizationId)));
}

/** The site `siteId` as the API shows it to the caller of `org` (from the grant's statement when it came with it); NotFound otherwise. */
export async function getSite(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<Site> {
  const [row] = await rowsOf(org.attached, 'site_with_facts', siteWithFactsSelect(ctx, org.organization.id, siteId));
  if (!row) throw new NotFound(`Site ${siteId} not found`);
  return toSite(ctx, org.organization, row.site, factsOf(row), callerSiteRole(org));
}

/** The caller's role on each listed site: their organization role raised by their and their teams' grants. */
function callerSiteGranted(ctx: Ctx) {
  return sql<string | null>`(SELECT rank_role(max(role_rank(g.role))) FROM content_grants g WHERE g.site_id = "sites"."id"
    AND (g.user_id = ${ctx.caller.userId} OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = "sites"."organization_id" AND tm.user_id = ${ctx.caller.userId})))`;
}

/**
 * The selects of one page of the organization's sites in creation order, filtered by published space, title
 * text and published state, and of their total, as listSites reads them (and attaches the page to its
 * grant: attached-reads.ts).
 */
export function sitesPageSelects(ctx: Ctx, organizationId: string, query: ListQuery) {
  const where = and(
    eq(sites.organizationId, organizationId),
    query.space === undefined ? undefined : sql`EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = "sites"."id" AND ss.space_id = ${query.space})`,
    query.title === undefined ? undefined : ilike(sites.title, containsPattern(query.title)),
    // The column itself or its negation, not a comparison with a parameter: the grant's statement carries
    // this select, and a prepared statement on PGlite takes no boolean parameter (server/db/sql-literal.mjs).
    query.published === undefined ? undefined : query.published ? sql`${sites.published}` : not(sites.published),
  );
  const page = directedPage([{ column: sites.id }], 'asc', query);
  const total = ctx.db.select({ n: count() }).from(sites).where(where);
  const rows = ctx.db
    .select({ site: sites, ...siteFactFields(), granted: callerSiteGranted(ctx), total: totalField(total) })
    .from(sites)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** One page of the organization's sites (sitesPageSelects), from the grant's statement when they came with it. */
export async function listSites(ctx: Ctx, org: OrganizationGrant, query: ListQuery) {
  const { page, rows, total } = sitesPageSelects(ctx, org.organization.id, query);
  const { items, totalCount } = await pageOf(org.attached, 'sites', page, rows, total);
  const roleOf = (granted: string | null) => (org.role === 'admin' ? 'admin' : strongest(org.role, asRole(granted)));
  return finishPage(items, page.limit, totalCount, (row) => [row.site.id], (row) => toSite(ctx, org.organization, row.site, factsOf(row), roleOf(row.granted)));
}

/** Creates an unpublished site publishing the given spaces at its root; throws NotFound for an unknown space. */
export async function createSite(ctx: Ctx, org: OrganizationGrant, body: CreateSite | undefined): Promise<Site> {
  const organizationId = org.organization.id;
  const now = ctx.now();
  const row = await ctx.transaction(async (tx) => {
    const [site] = await tx.db
      .insert(sites)
      .values({
        id: newId('sit', now.getTime()),
        organizationId,
        type: body?.type ?? 'basic',
        title: body?.title || 'Untitled site',
        visibility: body?.visibility ?? 'public',
        shareKey: randomBytes(18).toString('base64url'),
        visitorAuthKey: newVisitorKey(),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    // The spaces are checked in one query and their site spaces inserted in one statement, whatever their number.
    const spaceIds = body?.spaces ?? [];
    if (spaceIds.length) {
      const found = await tx.db
        .select({ id: spaces.id, title: spaces.title })
        .from(spaces)
        .where(and(inArray(spaces.id, spaceIds), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt)));
      const titleOf = new Map(found.map((f) => [f.id, f.title]));
      const missing = spaceIds.findIndex((id) => !titleOf.has(id));
      if (missing >= 0) throw new NotFound(`body.spaces[${missing}]: space ${spaceIds[missing]} not found in this organization`);
      let key: string | null = null;
      await tx.db.insert(siteSpaces).values(
        spaceIds.map((spaceId) => {
          key = keyAfter(key);
          return { id: newId('sts', now.getTime()), siteId: site.id, spaceId, path: slug(titleOf.get(spaceId)!), position: key, createdAt: now, updatedAt: now };
        }),
      );
    }
    await repairDefaults(tx, site.id);
    return (await tx.db.select().from(sites).where(eq(sites.id, site.id)))[0];
  });
  return siteView(ctx, org, row);
}

/** Deletes a site with its structure, and stops it being the organization's default content. */
export async function deleteSite(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const [deleted] = await tx.db
      .delete(sites)
      .where(and(eq(sites.id, siteId), eq(sites.organizationId, org.organization.id)))
      .returning({ id: sites.id });
    if (!deleted) return;
    // organizations.default_content_site is a plain column (core schema): cleared here.
    await tx.db
      .update(organizations)
      .set({ defaultContentSite: null })
      .where(and(eq(organizations.id, org.organization.id), eq(organizations.defaultContentSite, siteId)));
  });
}

/** Applies the given settings; throws NotFound for an unknown default item, Conflict for a taken hostname. */
export async function updateSite(ctx: Ctx, org: OrganizationGrant, siteId: string, body: UpdateSite): Promise<Site> {
  const row = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const defaultSectionId = body.defaultSiteSection;
    if (defaultSectionId !== undefined) await requireSection(tx, site.id, defaultSectionId, 'body.defaultSiteSection');
    if (body.defaultSiteSpace !== undefined) {
      await setDefaultSiteSpace(tx, site, defaultSectionId ?? site.defaultSectionId, body.defaultSiteSpace);
    }
    const [updated] = await tx.db
      .update(sites)
      .set({
        title: body.title,
        visibility: body.visibility,
        basename: body.basename,
        hostname: body.hostname,
        proxy: body.proxy,
        agentsContext: body.agentsContext,
        adaptiveEnabled: body.adaptiveContent?.enabled,
        defaultSectionId,
        updatedAt: ctx.now(),
      })
      .where(eq(sites.id, site.id))
      .returning()
      .catch(whenUniqueViolation(() => new Conflict(`body.hostname: ${body.hostname} is already used by another site`)));
    return updated;
  });
  return siteView(ctx, org, row);
}

async function requireSection(tx: Ctx, siteId: string, sectionId: string, field: string) {
  const [section] = await tx.db
    .select()
    .from(siteSections)
    .where(and(eq(siteSections.id, sectionId), eq(siteSections.siteId, siteId), eq(siteSections.kind, 'section')));
  if (!section) throw new NotFound(`${field}: site section ${sectionId} not found in this site`);
  return section;
}

// The default site space is chosen at the root or in the default section (the one the visitor lands on).
async function setDefaultSiteSpace(tx: Ctx, site: SiteRow, defaultSectionId: string | null, siteSpaceId: string) {
  const [siteSpace] = await tx.db
    .select()
    .from(siteSpaces)
    .where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, site.id)));
  if (!siteSpace) throw new NotFound(`body.defaultSiteSpace: site space ${siteSpaceId} not found in this site`);
  if (siteSpace.sectionId === null) {
    await tx.db.update(sites).set({ defaultSiteSpaceId: siteSpace.id }).where(eq(sites.id, site.id));
  } else if (siteSpace.sectionId === defaultSectionId) {
    await tx.db.update(siteSections).set({ defaultSiteSpaceId: siteSpace.id }).where(eq(siteSections.id, siteSpace.sectionId));
  } else {
    throw new BadRequest(`Invalid request: body.defaultSiteSpace: site space ${siteSpaceId} is neither at the root nor in the default section`);
  }
}

/** Publishes a site (publishing a published site changes nothing). */
export async function publishSite(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<Site> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const [row] = site.published
    ? [site]
    : await ctx.db.update(sites).set({ published: true, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  return siteView(ctx, org, row);
}

/** Unpublishes a site: the published site answers 404 from the next request (it reads the flag on each one). */
export async function unpublishSite(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<Site> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const [row] = !site.published
    ? [site]
    : await ctx.db.update(sites).set({ published: false, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  return siteView(ctx, org, row);
}
