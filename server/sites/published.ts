// The published profile of a site: what a renderer needs, read in a fixed number of queries.
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { BadRequest, NotFound } from '../errors.js';
import { siteCustomization, siteSpaceCustomization } from './customization.js';
import { siteScripts } from './site-scripts.js';
import { siteView } from './sites.store.js';
import { loadItems, loadSiteSpaceRows, requireSite, siteSpaceViews, treeOrder } from './structure.js';
import { sameSecret, toSection } from './site-view.js';

type PublishedContentSite = components['schemas']['PublishedContentSite'];

/**
 * The published profile: the site, its structure (its site spaces when it has no sections; else its sections
 * in navigation order, groups flattened, each section naming its group, with their site spaces, and its root
 * site spaces beside them), the customizations (each site space's with its overrides) and the scripts. Only a published site has
 * one; a share-link site needs its `shareKey` (400 without it; a wrong one is not found, like a link that
 * does not resolve). Site spaces of spaces in the trash are left out, as the published site leaves them out.
 */
export async function getPublished(ctx: Ctx, org: OrganizationGrant, siteId: string, shareKey: string | undefined): Promise<PublishedContentSite> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  if (!site.published) throw new NotFound(`Site ${siteId} is not published`);
  if (site.visibility === 'share-link') {
    if (shareKey === undefined) throw new BadRequest('Invalid request: query.shareKey: required for a share-link site');
    if (!sameSecret(shareKey, site.shareKey)) throw new NotFound(`Site ${siteId} not found for this share key`);
  }
  const items = treeOrder(await loadItems(ctx, site.id));
  const sections = items.filter((i) => i.kind === 'section');
  const rank = new Map(sections.map((s, i) => [s.id, i]));
  const rows = (await loadSiteSpaceRows(ctx, site.id)).sort(
    (a, b) => (a.sectionId === null ? -1 : rank.get(a.sectionId)!) - (b.sectionId === null ? -1 : rank.get(b.sectionId)!),
  );
  const siteSpaces = (await siteSpaceViews(ctx, org, site, rows, items)).filter((v) => !v.space.deletedAt);
  const rowById = new Map(rows.map((row) => [row.id, row]));
  const atRoot = siteSpaces.filter((v) => v.section === undefined);
  const structure: PublishedContentSite['structure'] = sections.length
    ? {
        type: 'sections',
        structure: sections.map((s) => toSection(ctx, org.organization, site, s, siteSpaces.filter((v) => v.section === s.id))),
        siteSpaces: atRoot,
      }
    : { type: 'siteSpaces', structure: atRoot };
  return {
    object: 'published-content-site',
    site: await siteView(ctx, org, site),
    structure,
    customizations: {
      site: siteCustomization(site),
      siteSpaces: Object.fromEntries(siteSpaces.map((s) => [s.id, siteSpaceCustomization(site, rowById.get(s.id)!)])),
    },
    scripts: await siteScripts(ctx.db, site.id, ctx.urls),
  };
}
