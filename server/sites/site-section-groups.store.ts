// Section groups of a site: named groups of sections, which nest; ordered together with sections.
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteSectionGroupOperations } from '../../contract/site-section-groups.js';
import type { OrganizationGrant } from '../auth/access.js';
import { keyAfter, keyBetween } from '../content/order-keys.js';
import type { Ctx } from '../context.js';
import { siteSections } from '../db/schema/index.js';
import { BadRequest, NotFound, unlessNotFound } from '../errors.js';
import { newId } from '../ids.js';
import { pageOf } from './page.js';
import { placeItem, requireSection } from './site-sections.store.js';
import { lastItemKey, loadItems, readSiteStructure, requireSite, sectionViews, structureSectionViews, treeOrder } from './structure.js';
import { toSectionGroup, type ItemRow, type SiteRow, type SiteSection, type SiteSectionGroup } from './site-view.js';

type AddGroup = z.output<typeof siteSectionGroupOperations.addSectionGroupToSite.body>;
type UpdateGroup = z.output<typeof siteSectionGroupOperations.updateSiteSectionGroupById.body>;
type Position = z.output<typeof siteSectionGroupOperations.moveSiteSectionGroup.body>['position'];
type PageQuery = { page?: string; limit?: number };

/** The sections directly in `groups`, in tree order. */
function sectionsIn(groups: ItemRow[], items: ItemRow[]): ItemRow[] {
  const groupIds = new Set(groups.map((g) => g.id));
  return treeOrder(items).filter((i) => i.kind === 'section' && i.parentId !== null && groupIds.has(i.parentId));
}

/** Group rows as API objects, each with its sections among `sections`. */
function groupViewsOf(groups: ItemRow[], sections: SiteSection[]): SiteSectionGroup[] {
  return groups.map((group) => toSectionGroup(group, sections.filter((s) => s.sectionGroup === group.id)));
}

/** Group rows as API objects, each with its sections (and their site spaces) in order. */
async function groupViews(ctx: Ctx, org: OrganizationGrant, site: SiteRow, groups: ItemRow[], items: ItemRow[]): Promise<SiteSectionGroup[]> {
  return groupViewsOf(groups, await sectionViews(ctx, org, site, sectionsIn(groups, items)));
}

async function groupView(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string): Promise<SiteSectionGroup> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const items = await loadItems(ctx, site.id);
  return (await groupViews(ctx, org, site, items.filter((i) => i.id === groupId), items))[0];
}

/** The section groups of a site in navigation order (parents before their nested groups). */
export async function listSectionGroups(ctx: Ctx, org: OrganizationGrant, siteId: string, query: PageQuery) {
  const structure = await readSiteStructure(ctx, org, siteId);
  const page = pageOf(treeOrder(structure.items).filter((i) => i.kind === 'group'), query);
  const sections = structureSectionViews(ctx, org, structure, structure.site, sectionsIn(page.rows, structure.items));
  return { items: groupViewsOf(page.rows, sections), count: page.count, ...(page.next && { next: page.next }) };
}

async function requireGroup(tx: Ctx, siteId: string, groupId: string, what = `Section group ${groupId}`): Promise<ItemRow> {
  const [row] = await tx.db
    .select()
    .from(siteSections)
    .where(and(eq(siteSections.id, groupId), eq(siteSections.siteId, siteId), eq(siteSections.kind, 'group')));
  if (!row) throw new NotFound(`${what} not found`);
  return row;
}

/** Creates a group at the end of the root (or of `parent`) holding the given sections, in the given order. */
export async function addSectionGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, body: AddGroup): Promise<SiteSectionGroup> {
  const id = await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const parentId = body.parent === undefined ? null : (await requireGroup(tx, site.id, body.parent, `body.parent: section group ${body.parent}`)).id;
    const sections: ItemRow[] = [];
    for (const [i, sectionId] of (body.sections ?? []).entries()) {
      sections.push(await requireSection(tx, site.id, sectionId, `body.sections[${i}]: site section ${sectionId}`));
    }
    const now = tx.now();
    const id = newId('ssg', now.getTime());
    await tx.db.insert(siteSections).values({
      id,
      siteId: site.id,
      kind: 'group',
      title: body.title,
      icon: body.icon ?? null,
      parentId,
      position: keyAfter(await lastItemKey(tx, site.id, parentId)),
      createdAt: now,
      updatedAt: now,
    });
    let key: string | null = null;
    for (const section of sections) {
      key = keyAfter(key);
      await tx.db.update(siteSections).set({ parentId: id, position: key, updatedAt: now }).where(eq(siteSections.id, section.id));
    }
    return id;
  });
  return groupView(ctx, org, siteId, id);
}

/** Deletes a group; its items take its place in its parent, in their order (nothing when it does not exist). */
export async function deleteSectionGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const site = await unlessNotFound(requireSite(tx, org.organization.id, siteId, true));
    const group = site && (await unlessNotFound(requireGroup(tx, site.id, groupId)));
    if (!site || !group) return;
    const items = await loadItems(tx, site.id);
    const siblings = items.filter((i) => i.parentId === group.parentId);
    const next = siblings[siblings.findIndex((i) => i.id === group.id) + 1];
    let key = group.position;
    for (const child of items.filter((i) => i.parentId === group.id)) {
      key = keyBetween(key, next?.position);
      await tx.db.update(siteSections).set({ parentId: group.parentId, position: key, updatedAt: tx.now() }).where(eq(siteSections.id, child.id));
    }
    await tx.db.delete(siteSections).where(eq(siteSections.id, group.id));
  });
}

/** Changes the title or icon of a group. */
export async function updateSectionGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string, body: UpdateGroup) {
  const site = await requireSite(ctx, org.organization.id, siteId);
  await requireGroup(ctx, site.id, groupId);
  await ctx.db.update(siteSections).set({ title: body.title, icon: body.icon, updatedAt: ctx.now() }).where(eq(siteSections.id, groupId));
  return groupView(ctx, org, siteId, groupId);
}

/** Puts a section of the site at the end of the group. */
export async function addSectionToGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string, sectionId: string) {
  await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    await requireGroup(tx, site.id, groupId);
    const section = await requireSection(tx, site.id, sectionId, `body.sectionId: site section ${sectionId}`);
    if (section.parentId === groupId) return;
    const position = keyAfter(await lastItemKey(tx, site.id, groupId));
    await tx.db.update(siteSections).set({ parentId: groupId, position, updatedAt: tx.now() }).where(eq(siteSections.id, section.id));
  });
  return groupView(ctx, org, siteId, groupId);
}

/** Takes a section out of a group, to the end of the root (nothing when it was not in the group). */
export async function removeSectionFromGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string, sectionId: string) {
  await ctx.transaction(async (tx) => {
    const site = await unlessNotFound(requireSite(tx, org.organization.id, siteId, true));
    if (!site) return;
    const [section] = await tx.db
      .select({ id: siteSections.id })
      .from(siteSections)
      .where(and(eq(siteSections.id, sectionId), eq(siteSections.siteId, site.id), eq(siteSections.parentId, groupId), eq(siteSections.kind, 'section')));
    if (!section) return;
    const position = keyAfter(await lastItemKey(tx, site.id, null));
    await tx.db.update(siteSections).set({ parentId: null, position, updatedAt: tx.now() }).where(eq(siteSections.id, section.id));
  });
}

/** Moves a group next to another item (section or group) of the site, into that item's parent; no cycles. */
export async function moveSectionGroup(ctx: Ctx, org: OrganizationGrant, siteId: string, groupId: string, position: Position) {
  await ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const group = await requireGroup(tx, site.id, groupId);
    const side = position.before ? 'before' : 'after';
    const anchorId = (position.before ?? position.after)?.id;
    if (!anchorId) throw new BadRequest('Invalid request: body.position: give before or after');
    const field = `body.position.${side}.id`;
    const items = await loadItems(tx, site.id);
    const byId = new Map(items.map((i) => [i.id, i]));
    const anchor = byId.get(anchorId);
    if (!anchor || anchor.id === group.id) throw new BadRequest(`Invalid request: ${field}: ${anchorId} is not another item of this site`);
    // The group cannot go inside itself: no ancestor of the anchor's parent may be the group.
    for (let p = anchor.parentId; p !== null; p = byId.get(p)?.parentId ?? null) {
      if (p === group.id) throw new BadRequest(`Invalid request: ${field}: ${anchorId} is inside the group being moved`);
    }
    await placeItem(tx, site.id, group.id, anchor, side);
  });
  return groupView(ctx, org, siteId, groupId);
}

