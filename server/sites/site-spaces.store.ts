// Site spaces: the spaces a site publishes, at its root or in a section, ordered within it.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteSpaceOperations } from '../../contract/site-spaces.js';
import type { OrganizationGrant } from '../auth/access.js';
import { keyAfter } from '../content/order-keys.js';
import { keyNextTo } from './positions.js';
import { checkCondition, claimNamesOf } from '../conditions/check.js';
import type { Ctx } from '../context.js';
import { siteSections, siteSpaces, spaces } from '../db/schema/index.js';
import { BadRequest, NotFound, unlessNotFound } from '../errors.js';
import { newId } from '../ids.js';
import { pageOf } from './page.js';
import {
  lastSiteSpaceKey,
  readSiteStructure,
  repairDefaults,
  requireSite,
  requireSpace,
  siteSpaceViews,
  slug,
  structureSiteSpaceViews,
  treeOrder,
} from './structure.js';
import { forReader, type SiteRow, type SiteSpace, type SiteSpaceRow } from './site-view.js';

type ListQuery = z.output<typeof siteSpaceOperations.listSiteSpaces.query>;
type AddSiteSpace = z.output<typeof siteSpaceOperations.addSpaceToSite.body>;
type UpdateSiteSpace = z.output<typeof siteSpaceOperations.updateSiteSpaceById.body>;
type Position = z.output<typeof siteSpaceOperations.moveSiteSpace.body>['position'];

/** The site spaces of a site in navigation order (root first, then section by section), optionally by default flag. */
export async function listSiteSpaces(ctx: Ctx, org: OrganizationGrant, siteId: string, query: ListQuery) {
  // `shareKey` resolves the published URLs of a share-link site; without it (or with a wrong one) they are absent.
  const structure = await readSiteStructure(ctx, org, siteId);
  const site = forReader(structure.site, query.shareKey);
  const items = treeOrder(structure.items);
  const rank = new Map(items.map((item, i) => [item.id, i]));
  const rows = structure.siteSpaceRows
    .map((row, i) => ({ row, i, sectionRank: row.sectionId === null ? -1 : rank.get(row.sectionId)! }))
    .sort((a, b) => a.sectionRank - b.sectionRank || a.i - b.i)
    .map((r) => r.row);
  const itemById = new Map(items.map((i) => [i.id, i]));
  const isDefault = (row: SiteSpaceRow) =>
    (row.sectionId === null ? site.defaultSiteSpaceId : itemById.get(row.sectionId)?.defaultSiteSpaceId) === row.id;
  const filtered = query.default === undefined ? rows : rows.filter((row) => isDefault(row) === query.default);
  const page = pageOf(filtered, query);
  const views = structureSiteSpaceViews(ctx, org, structure, site, page.rows);
  return { items: views, count: page.count, ...(page.next && { next: page.next }) };
}

/** One site space as the API shows it (the site re-read after the change, for its default pointers). */
export async function siteSpaceView(ctx: Ctx, org: OrganizationGrant, site: SiteRow, id: string): Promise<SiteSpace> {
  const fresh = await requireSite(ctx, org.organization.id, site.id);
  const [row] = await ctx.db.select().from(siteSpaces).where(eq(siteSpaces.id, id));
  const items = row.sectionId ? await ctx.db.select().from(siteSections).where(eq(siteSections.id, row.sectionId)) : [];
  return (await siteSpaceViews(ctx, org, fresh, [row], items))[0];
}

/** Publishes a space in a section (default: the default section, else the root); NotFound for unknown ids. */
export async function addSiteSpace(ctx: Ctx, org: OrganizationGrant, siteId: string, body: AddSiteSpace): Promise<SiteSpace> {
  const { site, id } = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    await requireSpace(tx, org.organization.id, body.spaceId, 'body.spaceId');
    const sectionId = body.sectionId ?? site.defaultSectionId;
    if (body.sectionId !== undefined) {
      const [section] = await tx.db
        .select({ id: siteSections.id })
        .from(siteSections)
        .where(and(eq(siteSections.id, body.sectionId), eq(siteSections.siteId, site.id), eq(siteSections.kind, 'section')));
      if (!section) throw new NotFound(`body.sectionId: site section ${body.sectionId} not found in this site`);
    }
    const id = await insertSiteSpace(tx, site.id, sectionId, body.spaceId);
    await repairDefaults(tx, site.id);
    return { site, id };
  });
  return siteSpaceView(ctx, org, site, id);
}

/** Inserts a site space at the end of a section (or of the root); returns its id. */
export async function insertSiteSpace(tx: Ctx, siteId: string, sectionId: string | null, spaceId: string): Promise<string> {
  const now = tx.now();
  const [space] = await tx.db.select({ title: spaces.title }).from(spaces).where(eq(spaces.id, spaceId));
  const id = newId('sts', now.getTime());
  await tx.db.insert(siteSpaces).values({
    id,
    siteId,
    sectionId,
    spaceId,
    path: slug(space.title),
    position: keyAfter(await lastSiteSpaceKey(tx, siteId, sectionId)),
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** Removes a site space (nothing when it does not exist); another one becomes the default if needed. */
export async function deleteSiteSpace(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const site = await unlessNotFound(requireSite(tx, org.organization.id, siteId, true));
    if (!site) return;
    await tx.db.delete(siteSpaces).where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, site.id)));
    await repairDefaults(tx, site.id);
  });
}

async function requireSiteSpace(tx: Ctx, siteId: string, siteSpaceId: string): Promise<SiteSpaceRow> {
  const [row] = await tx.db.select().from(siteSpaces).where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, siteId)));
  if (!row) throw new NotFound(`Site space ${siteSpaceId} not found`);
  return row;
}

/** Changes path, condition (null removes it) or space; omitted fields are unchanged. */
export async function updateSiteSpace(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string, body: UpdateSiteSpace) {
  const site = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    await requireSiteSpace(tx, site.id, siteSpaceId);
    checkCondition('body.condition', body.condition, claimNamesOf(site.adaptiveSchema));
    if (body.spaceId !== undefined) await requireSpace(tx, org.organization.id, body.spaceId, 'body.spaceId');
    await tx.db
      .update(siteSpaces)
      .set({ path: body.path, condition: body.condition, spaceId: body.spaceId, updatedAt: tx.now() })
      .where(eq(siteSpaces.id, siteSpaceId));
    return site;
  });
  return siteSpaceView(ctx, org, site, siteSpaceId);
}

/** Moves a site space before or after another of the same section; BadRequest for any other anchor. */
export async function moveSiteSpace(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string, position: Position) {
  const site = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const row = await requireSiteSpace(tx, site.id, siteSpaceId);
    const side = position.before ? 'before' : position.after ? 'after' : undefined;
    if (!side) throw new BadRequest('Invalid request: body.position: give before or after');
    const anchorId = (position.before ?? position.after)!.siteSpace;
    const field = `body.position.${side}.siteSpace`;
    const [anchor] = await tx.db.select().from(siteSpaces).where(and(eq(siteSpaces.id, anchorId), eq(siteSpaces.siteId, site.id)));
    if (!anchor || anchor.id === row.id || anchor.sectionId !== row.sectionId) {
      throw new BadRequest(`Invalid request: ${field}: ${anchorId} is not another site space of the same section of this site`);
    }
    const siblings = await tx.db
      .select({ id: siteSpaces.id, position: siteSpaces.position })
      .from(siteSpaces)
      .where(and(eq(siteSpaces.siteId, site.id), row.sectionId === null ? isNull(siteSpaces.sectionId) : eq(siteSpaces.sectionId, row.sectionId)))
      .orderBy(asc(siteSpaces.position), asc(siteSpaces.id));
    const key = keyNextTo(siblings.filter((s) => s.id !== row.id), anchor.id, side);
    await tx.db.update(siteSpaces).set({ position: key, updatedAt: tx.now() }).where(eq(siteSpaces.id, row.id));
    return site;
  });
  return siteSpaceView(ctx, org, site, siteSpaceId);
}
