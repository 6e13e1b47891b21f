// Sections of a site: a title and path over one or more site spaces (variants), at the root or in a group.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteSectionOperations } from '../../contract/site-sections.js';
import type { OrganizationGrant } from '../auth/access.js';
import { keyAfter } from '../content/order-keys.js';
import { checkCondition, claimNamesOf } from '../conditions/check.js';
import type { Ctx } from '../context.js';
import { siteSections, siteSpaces, spaces } from '../db/schema/index.js';
import { BadRequest, NotFound, unlessNotFound } from '../errors.js';
import { newId } from '../ids.js';
import { pageOf } from './page.js';
import { keyNextTo } from './positions.js';
import { insertSiteSpace } from './site-spaces.store.js';
import {
  lastItemKey,
  readSiteStructure,
  repairDefaults,
  requireSite,
  requireSpace,
  sectionView,
  slug,
  structureSectionViews,
  treeOrder,
} from './structure.js';
import { forReader, type ItemRow, type SiteSection } from './site-view.js';

type ListQuery = z.output<typeof siteSectionOperations.listSiteSections.query>;
type AddSection = z.output<typeof siteSectionOperations.addSectionToSite.body>;
type UpdateSection = z.output<typeof siteSectionOperations.updateSiteSectionById.body>;
type Position = z.output<typeof siteSectionOperations.moveSiteSection.body>['position'];

/** The sections of a site in navigation order (groups flattened), each with its site spaces. */
export async function listSiteSections(ctx: Ctx, org: OrganizationGrant, siteId: string, query: ListQuery) {
  // `shareKey` resolves the published URLs of a share-link site; without it (or with a wrong one) they are absent.
  const structure = await readSiteStructure(ctx, org, siteId);
  const site = forReader(structure.site, query.shareKey);
  const sections = treeOrder(structure.items).filter((i) => i.kind === 'section');
  const page = pageOf(sections, query);
  return { items: structureSectionViews(ctx, org, structure, site, page.rows), count: page.count, ...(page.next && { next: page.next }) };
}

/** Creates a section at the end of the site's root with `spaceId` as its first site space. */
export async function addSection(ctx: Ctx, org: OrganizationGrant, siteId: string, body: AddSection): Promise<SiteSection> {
  const { id } = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    await requireSpace(tx, org.organization.id, body.spaceId, 'body.spaceId');
    const [space] = await tx.db.select({ title: spaces.title }).from(spaces).where(eq(spaces.id, body.spaceId));
    const now = tx.now();
    const title = body.title ?? space.title;
    const id = newId('sec', now.getTime());
    await tx.db.insert(siteSections).values({
      id,
      siteId: site.id,
      kind: 'section',
      title,
      icon: body.icon ?? null,
      path: slug(title),
      position: keyAfter(await lastItemKey(tx, site.id, null)),
      createdAt: now,
      updatedAt: now,
    });
    await insertSiteSpace(tx, site.id, id, body.spaceId);
    await repairDefaults(tx, site.id);
    return { id };
  });
  return sectionView(ctx, org, await requireSite(ctx, org.organization.id, siteId), id);
}

/** A section of the site, read under the transaction; throws NotFound otherwise. */
export async function requireSection(tx: Ctx, siteId: string, sectionId: string, what = `Site section ${sectionId}`): Promise<ItemRow> {
  const [row] = await tx.db
    .select()
    .from(siteSections)
    .where(and(eq(siteSections.id, sectionId), eq(siteSections.siteId, siteId), eq(siteSections.kind, 'section')));
  if (!row) throw new NotFound(`${what} not found`);
  return row;
}

/** Deletes a section and its site spaces (nothing when it does not exist). */
export async function deleteSection(ctx: Ctx, org: OrganizationGrant, siteId: string, sectionId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const site = await unlessNotFound(requireSite(tx, org.organization.id, siteId, true));
    if (!site) return;
    await tx.db.delete(siteSections).where(and(eq(siteSections.id, sectionId), eq(siteSections.siteId, site.id), eq(siteSections.kind, 'section')));
    await repairDefaults(tx, site.id);
  });
}

/** Applies the given settings; `condition: null` removes the condition. */
export async function updateSection(ctx: Ctx, org: OrganizationGrant, siteId: string, sectionId: string, body: UpdateSection) {
  await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    await requireSection(tx, site.id, sectionId);
    checkCondition('body.condition', body.condition, claimNamesOf(site.adaptiveSchema));
    if (body.defaultSiteSpace !== undefined) {
      const [siteSpace] = await tx.db
        .select({ id: siteSpaces.id })
        .from(siteSpaces)
        .where(and(eq(siteSpaces.id, body.defaultSiteSpace), eq(siteSpaces.sectionId, sectionId)));
      if (!siteSpace) throw new NotFound(`body.defaultSiteSpace: site space ${body.defaultSiteSpace} not found in this section`);
    }
    await tx.db
      .update(siteSections)
      .set({
        title: body.title,
        path: body.path,
        defaultSiteSpaceId: body.defaultSiteSpace,
        condition: body.condition,
        icon: body.icon,
        description: body.description,
        updatedAt: tx.now(),
      })
      .where(eq(siteSections.id, sectionId));
  });
  return sectionView(ctx, org, await requireSite(ctx, org.organization.id, siteId), sectionId);
}

/**
 * Moves a section next to another section of the site; it joins that section's group (or the root).
 * Throws NotFound for an unknown section, BadRequest for an anchor that is not another section of the site.
 */
export async function moveSection(ctx: Ctx, org: OrganizationGrant, siteId: string, sectionId: string, position: Position) {
  await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const row = await requireSection(tx, site.id, sectionId);
    const side = position.before ? 'before' : 'after';
    const anchorId = (position.before ?? position.after)?.siteSection;
    if (!anchorId) throw new BadRequest('Invalid request: body.position: give before or after');
    const [anchor] = await tx.db
      .select()
      .from(siteSections)
      .where(and(eq(siteSections.id, anchorId), eq(siteSections.siteId, site.id), eq(siteSections.kind, 'section')));
    if (!anchor || anchor.id === row.id) {
      throw new BadRequest(`Invalid request: body.position.${side}.siteSection: ${anchorId} is not another section of this site`);
    }
    await placeItem(tx, site.id, row.id, anchor, side);
  });
  return sectionView(ctx, org, await requireSite(ctx, org.organization.id, siteId), sectionId);
}

/** Puts item `id` right before or after `anchor`, in the anchor's parent group. */
export async function placeItem(tx: Ctx, siteId: string, id: string, anchor: ItemRow, side: 'before' | 'after'): Promise<void> {
  const siblings = await tx.db
    .select({ id: siteSections.id, position: siteSections.position })
    .from(siteSections)
    .where(and(eq(siteSections.siteId, siteId), anchor.parentId === null ? isNull(siteSections.parentId) : eq(siteSections.parentId, anchor.parentId)))
    .orderBy(asc(siteSections.position), asc(siteSections.id));
  const position = keyNextTo(siblings.filter((s) => s.id !== id), anchor.id, side);
  await tx.db.update(siteSections).set({ parentId: anchor.parentId, position, updatedAt: tx.now() }).where(eq(siteSections.id, id));
}
