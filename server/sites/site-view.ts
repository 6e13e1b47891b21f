// API forms of sites, site spaces, sections and section groups, built from rows, and where sites are served.
import { timingSafeEqual } from 'node:crypto';
import type { components } from '../../generated/types.js';
import type { OrganizationRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { siteSections, sites, siteSpaces } from '../db/schema/index.js';
import type { Space } from '../spaces/space-view.js';
import type { Role } from '../auth/roles.js';
import { siteFeatures, sitePermissions, type SiteFacts } from './site-features.js';

export type Site = components['schemas']['Site'];
export type SiteSpace = components['schemas']['SiteSpace'];
export type SiteSection = components['schemas']['SiteSection'];
export type SiteSectionGroup = components['schemas']['SiteSectionGroup'];
export type SiteRow = typeof sites.$inferSelect;
export type ItemRow = typeof siteSections.$inferSelect;
export type SiteSpaceRow = typeof siteSpaces.$inferSelect;
/** What of a site row its URLs are built from. */
export type PlacedSite = Pick<SiteRow, 'id' | 'basename' | 'hostname' | 'proxy' | 'visibility' | 'shareKey' | 'published'>;

/**
 * Where this server serves the site: `<PUBLISHED_URL>/<organization hostname or id>/<basename or site id>`
 * (server/published/ answers there; the organization's hostname is a name, not a DNS host, so it is a path
 * segment). A proxy forwards to this URL.
 */
export function siteServedUrl(ctx: Pick<Ctx, 'urls'>, org: Pick<OrganizationRow, 'id' | 'hostname'>, site: Pick<SiteRow, 'id' | 'basename'>): string {
  return ctx.urls.published(`/${encodeURIComponent(org.hostname ?? org.id)}/${encodeURIComponent(site.basename ?? site.id)}`);
}

/**
 * Where readers open the site: its custom hostname (served by this server for requests whose `Host` is that
 * hostname), else its proxy, else where this server serves it.
 */
export function siteBaseUrl(ctx: Pick<Ctx, 'urls'>, org: Pick<OrganizationRow, 'id' | 'hostname'>, site: PlacedSite): string {
  if (site.hostname) return `https://${site.hostname}`;
  if (site.proxy) return `https://${site.proxy}`;
  return siteServedUrl(ctx, org, site);
}

/** The path segments that carry a share-link site's secret key in its URLs. */
export const shareKeySegment = '~s';

/**
 * The site row as a reader holding `given` sees it: a share-link site whose key was not given (or is
 * wrong) loses its key, so none of its published URLs can be built for that reader.
 */
export function forReader<S extends Pick<SiteRow, 'visibility' | 'shareKey'>>(site: S, given: string | undefined): S {
  if (site.visibility !== 'share-link' || (given !== undefined && sameSecret(given, site.shareKey))) return site;
  return { ...site, shareKey: '' };
}

/** Compares secrets in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The published URL of `path` in the site, when the site is published: a share-link site's URLs carry its
 * key (`<base>/~s/<key>/<path>`), and have none for a reader without the key (see `forReader`).
 */
export function publishedUrl(ctx: Pick<Ctx, 'urls'>, org: Pick<OrganizationRow, 'id' | 'hostname'>, site: PlacedSite, path?: string): string | undefined {
  if (!site.published) return undefined;
  let base = siteBaseUrl(ctx, org, site);
  if (site.visibility === 'share-link') {
    if (!site.shareKey) return undefined;
    base += `/${shareKeySegment}/${site.shareKey}`;
  }
  return base + (path ? `/${path.split('/').map(encodeURIComponent).join('/')}` : '');
}

/** The path segments, under a site's URL, of its visitors' sign-in and sign-out (server/published/). */
export const signInPath = '~auth/login';
export const signOutPath = '~auth/logout';

/** Whether the site's visitors may carry a token: they need a way to sign in and out. */
export function visitorsSignIn(site: Pick<SiteRow, 'visibility' | 'adaptiveEnabled'>): boolean {
  return site.visibility === 'visitor-auth' || site.adaptiveEnabled;
}

/** The API form of a site row, with its facts (site spaces, sections, redirects) and the caller's role on it. */
export function toSite(ctx: Ctx, org: OrganizationRow, row: SiteRow, facts: SiteFacts, role: Role | null): Site {
  const published = publishedUrl(ctx, org, row);
  const signIn = published !== undefined && visitorsSignIn(row);
  // The proxy forwards to where the site would be served without it.
  const target = siteServedUrl(ctx, org, row);
  return {
    object: 'site',
    id: row.id,
    type: row.type as Site['type'],
    // No plan is frozen or lapses here: the plan in effect is the site's.
    appliedType: row.type as Site['type'],
    title: row.title,
    ...(row.hostname && { hostname: row.hostname }),
    ...(row.basename && { basename: row.basename }),
    ...(row.proxy && { proxy: { origin: `https://${row.proxy}`, target } }),
    visibility: row.visibility as Site['visibility'],
    // A site has no level of its own: members get their organization role there, raised by grants.
    defaultLevel: 'inherit',
    permissions: sitePermissions(role),
    features: siteFeatures(row, facts),
    published: row.published,
    siteSpaces: facts.siteSpaces,
    createdAt: row.createdAt.toISOString(),
    adaptiveContent: { enabled: row.adaptiveEnabled },
    agentsContext: row.agentsContext as Site['agentsContext'],
    urls: {
      location: ctx.urls.api(`/orgs/${org.id}/sites/${row.id}`),
      app: ctx.urls.app(`/o/${org.id}/sites/${row.id}`),
      preview: ctx.urls.app(`/o/${org.id}/sites/${row.id}/preview`),
      ...(published && { published }),
      ...(signIn && { login: `${published}/${signInPath}`, logout: `${published}/${signOutPath}` }),
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
  // A site space whose space is in the trash is not served, so it has no published URL.
  const published = space.deletedAt ? undefined : publishedUrl(ctx, org, site, path);
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
    // Every change to a site's structure is live at once: nothing is a draft.
    draft: false,
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
    draft: false,
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
    sections: children,
    draft: false,
    ...(row.icon && { icon: row.icon }),
  };
}
