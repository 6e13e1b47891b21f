// getSiteRedirectBySource: the live redirect a path of the site follows, and the URL it leads to (the site's
// published URL: with a share-link site's key, which the caller must give).
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { attachAll, attachSelect, rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { structureSelects } from '../published/site-data.js';
import { liveRedirectsSelect, matchRedirect, toSiteRedirect } from '../sites/site-redirects.store.js';
import { forReader, publishedUrl } from '../sites/site-view.js';
import { requireGrantedSite, siteSelect } from '../sites/structure.js';
import { redirectLocation } from './redirect-target.js';

type Resolution = components['schemas']['SiteRedirectResolution'];

/** What a lookup reads: the site, its live redirects and its structure (where a redirect leads). */
function lookupSelects(ctx: Ctx, organizationId: string, siteId: string) {
  return { site: siteSelect(ctx, organizationId, siteId), redirects: liveRedirectsSelect(ctx, siteId), ...structureSelects(ctx.db, siteId) };
}

/** What a lookup reads, attached to its grant (attached-reads.ts). */
export const redirectLookupAttached: AttachedReadOf = (params, ctx) => {
  const selects = lookupSelects(ctx, params.organizationId, params.siteId);
  return attachAll(
    'redirect_lookup',
    attachSelect('site', selects.site),
    attachSelect('live_redirects', selects.redirects),
    attachSelect('site_items', selects.items),
    attachSelect('published_site_spaces', selects.siteSpaces),
  );
};

export async function redirectBySource(ctx: Ctx, org: OrganizationGrant, siteId: string, source: string, shareKey: string | undefined): Promise<Resolution> {
  const selects = lookupSelects(ctx, org.organization.id, siteId);
  const site = forReader(await requireGrantedSite(ctx, org, siteId), shareKey);
  const none = () => new NotFound(`No redirect from ${source} in site ${siteId}`);
  const base = publishedUrl(ctx, org.organization, site);
  if (!base) throw none();
  const redirects = await rowsOf(org.attached, 'live_redirects', selects.redirects);
  // A source given as stored (`/old/*` included) names its redirect; any other path, the one it follows.
  const stored = redirects.find((r) => r.source === source);
  const matched = stored ? { redirect: stored, rest: '' } : matchRedirect(redirects, source);
  if (!matched) throw none();
  const structure = { items: await rowsOf(org.attached, 'site_items', selects.items), siteSpaces: await rowsOf(org.attached, 'published_site_spaces', selects.siteSpaces) };
  const location = await redirectLocation(ctx.db, structure, matched.redirect, matched.rest);
  if (!location) throw none();
  return { redirect: toSiteRedirect(matched.redirect), target: location.external ? location.location : `${base}${location.location}` };
}
