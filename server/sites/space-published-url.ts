// Where a space is published, for `urls.published` of a space (getSpaceById): the URL of its site space in
// the first published site of its organization that publishes it. A share-link site counts only for a
// caller who gives its `shareKey` (then the URL carries the key); without it such a site is skipped.
import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { organizations, siteSections, sites, siteSpaces } from '../db/schema/index.js';
import { forReader, publishedUrl } from './site-view.js';

export async function spacePublishedUrl(ctx: Pick<Ctx, 'db' | 'urls'>, spaceId: string, shareKey: string | undefined): Promise<string | undefined> {
  const rows = await ctx.db
    .select({ site: sites, org: organizations, path: siteSpaces.path, sectionPath: siteSections.path })
    .from(siteSpaces)
    .innerJoin(sites, and(eq(sites.id, siteSpaces.siteId), eq(sites.published, true)))
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .leftJoin(siteSections, eq(siteSections.id, siteSpaces.sectionId))
    .where(eq(siteSpaces.spaceId, spaceId))
    .orderBy(asc(sites.id), asc(siteSpaces.position), asc(siteSpaces.id))
    .limit(50);
  for (const row of rows) {
    const url = publishedUrl(ctx, row.org, forReader(row.site, shareKey), row.sectionPath ? `${row.sectionPath}/${row.path}` : row.path);
    if (url) return url;
  }
  return undefined;
}
