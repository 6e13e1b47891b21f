// The customization of one site space: the fields of the site's customization it overrides, stored on the
// site space and applied over the site's wherever that site space's pages are shown (the published site,
// the published profile). A PATCH sets or clears fields (null clears), so a site space never holds a copy
// of the defaults: what it does not override follows the site.
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteSpaceOperations } from '../../contract/site-spaces.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import { claimNamesOf } from '../conditions/check.js';
import type { Ctx } from '../context.js';
import { sites, siteSpaces } from '../db/schema/index.js';
import { NotFound, unlessNotFound } from '../errors.js';
import { checkHeaderConditions, siteSpaceCustomization, type Json, type SiteCustomization } from './customization.js';
import { requireSite } from './structure.js';

type OverrideBody = z.output<typeof siteSpaceOperations.overrideSiteSpaceCustomizationById.body>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The overrides `patch` leaves: given fields replace (objects field by field), null removes, omitted stay. */
export function patchedOverrides(current: Json, patch: Json): Json {
  const out: Json = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (key === 'styling' && isObject(value)) {
      const styling = patchedOverrides(isObject(out.styling) ? out.styling : {}, value);
      if (Object.keys(styling).length) out.styling = styling;
      else delete out.styling;
    } else out[key] = value;
  }
  return out;
}

async function requireSiteSpaceRow(ctx: Ctx, siteId: string, siteSpaceId: string, lock = false) {
  const query = ctx.db.select().from(siteSpaces).where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, siteId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new NotFound(`Site space ${siteSpaceId} not found`);
  return row;
}

/**
 * The select of the site `siteId` of the organization with its site space `siteSpaceId` (null when the site
 * has none of that id), as getSiteSpaceCustomization reads them (and attaches them: server/attached-reads.ts).
 */
export function siteWithSiteSpaceSelect(ctx: Ctx, organizationId: string, siteId: string, siteSpaceId: string) {
  return ctx.db
    .select({ site: sites, siteSpace: siteSpaces })
    .from(sites)
    .leftJoin(siteSpaces, and(eq(siteSpaces.siteId, sites.id), eq(siteSpaces.id, siteSpaceId)))
    .where(and(eq(sites.id, siteId), eq(sites.organizationId, organizationId)));
}

/**
 * The customization the site space's pages show; NotFound for an unknown site or site space. One select,
 * read from the grant's statement when the operation attached it there.
 */
export async function getSiteSpaceCustomization(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string): Promise<SiteCustomization> {
  const [found] = await rowsOf(org.attached, 'site_site_space', siteWithSiteSpaceSelect(ctx, org.organization.id, siteId, siteSpaceId));
  if (!found) throw new NotFound(`Site ${siteId} not found`);
  if (!found.siteSpace) throw new NotFound(`Site space ${siteSpaceId} not found`);
  return siteSpaceCustomization(found.site, found.siteSpace);
}

/** Sets or clears overrides of the site space; returns its customization. */
export async function overrideSiteSpaceCustomization(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string, patch: OverrideBody) {
  return ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId);
    const row = await requireSiteSpaceRow(tx, site.id, siteSpaceId, true);
    checkHeaderConditions(patch as Parameters<typeof checkHeaderConditions>[0], claimNamesOf(site.adaptiveSchema));
    const overrides = patchedOverrides(row.customization ?? {}, patch as Json);
    const customization = Object.keys(overrides).length ? overrides : null;
    await tx.db.update(siteSpaces).set({ customization, updatedAt: tx.now() }).where(eq(siteSpaces.id, row.id));
    return siteSpaceCustomization(site, { customization });
  });
}

/** Clears every override of the site space (nothing when the site or site space does not exist). */
export async function deleteSiteSpaceCustomization(ctx: Ctx, org: OrganizationGrant, siteId: string, siteSpaceId: string): Promise<void> {
  const site = await unlessNotFound(requireSite(ctx, org.organization.id, siteId));
  if (!site) return;
  await ctx.db
    .update(siteSpaces)
    .set({ customization: null, updatedAt: ctx.now() })
    .where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, site.id)));
}
