// API forms of sites, site spaces, sections and section groups, built from rows.
import type { components } from '../../generated/types.js';
import type { OrganizationRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { siteSections, sites, siteSpaces } from '../db/schema/index.js';
import type { Space } from '../spaces/space-view.js';

export type Site = components['schemas']['Site'];
export type SiteSpace = components['schemas']['SiteSpace'];
export type SiteSection = components['schemas']['SiteSection'];
export type SiteSectionGroup = components['schemas']['SiteSectionGroup'];
export type SiteRow = typeof sites.$inferSelect;
export type ItemRow = typeof siteSections.$inferSelect;
export type SiteSpaceRow = typeof siteSpaces.$inferSelect;

/**
 * Where the site is served: its custom hostname, else its proxy, else under the organization's hostname
 * (or the app when the organization has none). A share-link site's URL carries its secret key.
 */
export function siteBaseUrl(ctx: Ctx, org: OrganizationRow, site: SiteRow): string {
  const name = site.basename ?? site.id;
  if (site.hostname) return `https://${site.hostname}`;
  if (site.proxy) return `https://${site.proxy}`;
  return org.hostname ? `https://${org.hostname}/${name}` : ctx.urls.app(`/published/${org.id}/${name}`);
}

/** The published URL of `path` in the site, when the site is published. */
export function publishedUrl(ctx: Ctx, org: OrganizationRow, site: SiteRow, path?: string): string | undefined {
  if (!site.published) return undefined;
  const base = siteBaseUrl(ctx, org, site) + (path ? `/${path}` : '');
  return site.visibility === 'share-link' ? `${base}?share-key=${site.shareKey}` : base;
}

/** The API form of a site row, with its number of site spaces. */
export function toSite(ctx: Ctx, org: OrganizationRow, row: SiteRow, siteSpaceCount: number): Site {
  const published = publishedUrl(ctx, org, row);
  // The proxy forwards to where the site would be served without it.
  const target = org.hostname ? `https://${org.hostname}/${row.basename ?? row.id}` : ctx.urls.app(`/published/${org.id}/${row.basename ?? row.id}`);
  return {
    object: 'site',
    id: row.id,
    type: row.type as Site['type'],
    title: row.title,
    ...(row.hostname && { hostname: row.hostname }),
    ...(row.basename && { basename: row.basename }),
    ...(row.proxy && { proxy: { origin: `https://${row.proxy}`, target } }),
    visibility: row.visibility as Site['visibility'],
    published: row.published,
    siteSpaces: siteSpaceCount,
    createdAt: row.createdAt.toISOString(),
    adaptiveContent: { enabled: row.adaptiveEnabled },
    agentsContext: row.agentsContext as Site['agentsContext'],
    urls: {
      location: ctx.urls.api(`/orgs/${org.id}/sites/${row.id}`),
      app: ctx.urls.app(`/o/${org.id}/sites/${row.id}`),
      ...(published && { published }),
    },
  };
}

/** What a site space view needs besides its row. */
export interface SiteSpaceContext {
  ctx: Ctx;
  org: OrganizationRow;
  site: SiteRow;
  /** The section holding the site space (undefined at the root), for its default and its URL. */
  section?: ItemRow;
}

/** The API form of a site space, publishing `space`. */
export function toSiteSpace({ ctx, org, site, section }: SiteSpaceContext, row: SiteSpaceRow, space: Space): SiteSpace {
  const isDefault = section ? section.defaultSiteSpaceId === row.id : site.defaultSiteSpaceId === row.id;
  const path = section?.path ? `${section.path}/${row.path}` : row.path;
  const published = publishedUrl(ctx, org, site, path);
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(row.sectionId && { section: row.sectionId }),
    space,
    title: space.title,
    default: isDefault,
    ...(row.condition !== null && { condition: row.condition }),
    hasAdvancedCustomizationFeature: site.type === 'ultimate',
    urls: { ...(published && { published }) },
  };
}

/** The API form of a section, with its site spaces in their order. */
export function toSection(ctx: Ctx, org: OrganizationRow, site: SiteRow, row: ItemRow, siteSpaces: SiteSpace[]): SiteSection {
  const published = publishedUrl(ctx, org, site, row.path ?? undefined);
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null && { description: row.description }),
    default: site.defaultSectionId === row.id,
    path: row.path ?? '',
    ...(row.condition !== null && { condition: row.condition }),
    ...(row.parentId && { sectionGroup: row.parentId }),
    siteSpaces,
    urls: { ...(published && { published }) },
    ...(row.icon && { icon: row.icon }),
  };
}

/** The API form of a section group, with its sections in their order. */
export function toSectionGroup(row: ItemRow, children: SiteSection[]): SiteSectionGroup {
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    ...(row.parentId && { sectionGroup: row.parentId }),
    children,
    ...(row.icon && { icon: row.icon }),
  };
}
