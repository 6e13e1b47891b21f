// getSiteRedirectBySource: the live redirect a path of the site follows, and the URL it leads to (the site's
// published URL: with a share-link site's key, which the caller must give).
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { loadStructure } from '../published/site-data.js';
import { liveRedirects, matchRedirect, toSiteRedirect } from '../sites/site-redirects.store.js';
import { forReader, publishedUrl } from '../sites/site-view.js';
import { requireSite } from '../sites/structure.js';
import { redirectLocation } from './redirect-target.js';

type Resolution = components['schemas']['SiteRedirectResolution'];

export async function redirectBySource(ctx: Ctx, org: OrganizationGrant, siteId: string, source: string, shareKey: string | undefined): Promise<Resolution> {
  const site = forReader(await requireSite(ctx, org.organization.id, siteId), shareKey);
  const none = () => new NotFound(`No redirect from ${source} in site ${siteId}`);
  const base = publishedUrl(ctx, org.organization, site);
  if (!base) throw none();
  const redirects = await liveRedirects(ctx, site.id);
  // A source given as stored (`/old/*` included) names its redirect; any other path, the one it follows.
  const stored = redirects.find((r) => r.source === source);
  const matched = stored ? { redirect: stored, rest: '' } : matchRedirect(redirects, source);
  if (!matched) throw none();
  const location = await redirectLocation(ctx.db, await loadStructure(ctx.db, site.id), matched.redirect, matched.rest);
  if (!location) throw none();
  return { redirect: toSiteRedirect(matched.redirect), target: location.external ? location.location : `${base}${location.location}` };
}
