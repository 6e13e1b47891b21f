// The published profile of a site: what a renderer needs, read with its grant in one statement (after it, in a
// fixed number of queries, for a caller whose reads are not attached: siteStructureAttached).
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { attachAll, attachSelect } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { BadRequest, NotFound } from '../errors.js';
import { siteCustomization, siteSpaceCustomization } from './customization.js';
import { grantedSiteScripts, siteScriptsRead } from './site-scripts.js';
import { getSite, siteWithFactsSelect } from './sites.store.js';
import { readSiteStructure, siteStructureAttached, structureSiteSpaceViews, treeOrder } from './structure.js';
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
  const { site, items: positioned, siteSpaceRows, spaceById } = await readSiteStructure(ctx, org, siteId);
  if (!site.published) throw new NotFound(`Site ${siteId} is not published`);
  if (site.visibility === 'share-link') {
    if (shareKey === undefined) throw new BadRequest('Invalid request: query.shareKey: required for a share-link site');
    if (!sameSecret(shareKey, site.shareKey)) throw new NotFound(`Site ${siteId} not found for this share key`);
  }
  const items = treeOrder(positioned);
  const sections = items.filter((i) => i.kind === 'section');
  const rank = new Map(sections.map((s, i) => [s.id, i]));
  const rows = [...siteSpaceRows].sort(
    (a, b) => (a.sectionId === null ? -1 : rank.get(a.sectionId)!) - (b.sectionId === null ? -1 : rank.get(b.sectionId)!),
  );
  const siteSpaces = structureSiteSpaceViews(ctx, org, { site, items, siteSpaceRows, spaceById }, site, rows).filter((v) => !v.space.deletedAt);
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
    site: await getSite(ctx, org, siteId),
    structure,
    customizations: {
      site: siteCustomization(site),
      siteSpaces: Object.fromEntries(siteSpaces.map((s) => [s.id, siteSpaceCustomization(site, rowById.get(s.id)!)])),
    },
    scripts: await grantedSiteScripts(ctx.db, org.attached, site.id, ctx.urls),
  };
}

/**
 * The reads of the published profile attached to its grant (attached-reads.ts): the site's structure, the site
 * with its facts, its scripts; nothing for a caller whose structure is read after the grant (siteStructureAttached).
 */
export const publishedSiteAttached: AttachedReadOf = (params, ctx, query) => {
  const structure = siteStructureAttached(params, ctx, query);
  if (!structure) return undefined;
  return attachAll(
    'published_site',
    structure,
    attachSelect('site_with_facts', siteWithFactsSelect(ctx, params.organizationId, params.siteId)),
    siteScriptsRead(params.siteId),
  );
};
