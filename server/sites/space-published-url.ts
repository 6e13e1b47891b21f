// Where a space is published, for `urls.published` of a space (getSpaceById): the URL of its site space in
// the first published site of its organization that publishes it. A share-link site counts only for a
// caller who gives its `shareKey` (then the URL carries the key); without it such a site is skipped.
import { and, asc, eq } from 'drizzle-orm';
import type { PublishedPlace } from '../auth/grants.js';
import type { Ctx } from '../context.js';
import { organizations, siteSections, sites, siteSpaces } from '../db/schema/index.js';
import { forReader, publishedUrl } from './site-view.js';

/** The published URL of the space among the places where published sites publish it (in their order). */
export function publishedUrlAmong(ctx: Pick<Ctx, 'urls'>, places: readonly PublishedPlace[], shareKey: string | undefined): string | undefined {
  for (const place of places) {
    const url = publishedUrl(ctx, place.organization, forReader(place.site, shareKey), place.sectionPath ? `${place.sectionPath}/${place.path}` : place.path);
    if (url) return url;
  }
  return undefined;
}

/** The same, read for a space whose places were not read with it (server/auth/grants.ts `publishedPlacesOf`). */
export async function spacePublishedUrl(ctx: Pick<Ctx, 'db' | 'urls'>, spaceId: string, shareKey: string | undefined): Promise<string | undefined> {
  const rows = await ctx.db
    .select({ site: sites, organization: organizations, path: siteSpaces.path, sectionPath: siteSections.path })
    .from(siteSpaces)
    .innerJoin(sites, and(eq(sites.id, siteSpaces.siteId), eq(sites.published, true)))
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .leftJoin(siteSections, eq(siteSections.id, siteSpaces.sectionId))
    .where(eq(siteSpaces.spaceId, spaceId))
    .orderBy(asc(sites.id), asc(siteSpaces.position), asc(siteSpaces.id))
    .limit(50);
  return publishedUrlAmong(ctx, rows, shareKey);
}
