// Where a site redirect leads, on the site as it is now: a section's or a site space's URL, a page's at its
// current path, or the external URL; with the part a `*` source matched appended when it captures it.
// Undefined when the destination no longer exists (the redirect then applies to nothing).
import type { SiteRedirectRow } from '../sites/site-redirects.store.js';
import type { Db } from '../db/client.js';
import { joinPath, sectionSegment, variantPath } from '../published/navigation.js';
import { spaceTree, type SiteStructure, type TreeRead } from '../published/site-data.js';

type Destination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

/** The location, under the site's base (`/…`) or absolute for an external destination; a page's tree read by `treeRead`. */
export async function redirectLocation(db: Db, structure: SiteStructure, redirect: SiteRedirectRow, rest: string, treeRead: TreeRead = spaceTree): Promise<{ location: string; external: boolean } | undefined> {
  const destination = redirect.destination as Destination;
  const tail = redirect.captureWildcard && rest ? rest : '';
  if (destination.kind === 'external') {
    if (!tail) return { location: destination.url, external: true };
    const url = new URL(destination.url);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/${tail}`;
    return { location: url.toString(), external: true };
  }
  let path: string | undefined;
  if (destination.kind === 'site-section') {
    const section = structure.items.find((i) => i.id === destination.siteSectionId && i.kind === 'section');
    path = section && joinPath(sectionSegment(section));
  } else {
    const entry = structure.siteSpaces.find((e) => e.row.id === destination.siteSpaceId);
    if (entry) {
      const section = structure.items.find((i) => i.id === entry.row.sectionId);
      path = joinPath(variantPath(section, entry));
      if (destination.kind === 'site-page') {
        const page = (await treeRead(db, entry.space)).pages.find((p) => p.page.id === destination.pageId);
        path = page ? joinPath(path, page.path) : undefined;
      }
    }
  }
  if (path === undefined) return undefined;
  // The captured part is already escaped (it is a part of the request's path as sent).
  return { location: `/${[path, tail].filter(Boolean).join('/')}`, external: false };
}
