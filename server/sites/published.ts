// The published profile of a site: what a renderer needs, read in a fixed number of queries.
import { timingSafeEqual } from 'node:crypto';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { BadRequest, NotFound } from '../errors.js';
import { defaultCustomization } from './customization.js';
import { siteView } from './sites.store.js';
import { loadItems, loadSiteSpaceRows, requireSite, siteSpaceViews, treeOrder } from './structure.js';
import { toSection } from './site-view.js';

type PublishedContentSite = components['schemas']['PublishedContentSite'];

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The published profile: the site, its sections in navigation order (groups flattened, each section
 * naming its group) with their site spaces, the customizations and the scripts. A share-link site needs
 * its `shareKey` (400 without it; a wrong one is not found, like a link that does not resolve).
 */
export async function getPublished(ctx: Ctx, org: OrganizationGrant, siteId: string, shareKey: string | undefined): Promise<PublishedContentSite> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  if (site.visibility === 'share-link') {
    if (shareKey === undefined) throw new BadRequest('Invalid request: query.shareKey: required for a share-link site');
    if (!sameKey(shareKey, site.shareKey)) throw new NotFound(`Site ${siteId} not found for this share key`);
  }
  const items = treeOrder(await loadItems(ctx, site.id));
  const sections = items.filter((i) => i.kind === 'section');
  const rank = new Map(sections.map((s, i) => [s.id, i]));
  const rows = (await loadSiteSpaceRows(ctx, site.id)).sort(
    (a, b) => (a.sectionId === null ? -1 : rank.get(a.sectionId)!) - (b.sectionId === null ? -1 : rank.get(b.sectionId)!),
  );
  const siteSpaces = await siteSpaceViews(ctx, org, site, rows, items);
  return {
    object: 'published-content-site',
    site: await siteView(ctx, org, site),
    structure: {
      type: 'sections',
      structure: sections.map((s) => toSection(ctx, org.organization, site, s, siteSpaces.filter((v) => v.section === s.id))),
    },
    customizations: {
      site: defaultCustomization(site.title),
      siteSpaces: Object.fromEntries(siteSpaces.map((s) => [s.id, defaultCustomization(s.title)])),
    },
    // Integration scripts come with the integrations area; a site has none until then.
    scripts: [],
  };
}
