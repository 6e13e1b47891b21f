// What URL resolution (url-lookup.ts) reads in the statement that finds the site (site-data.ts `SiteAlong`), so
// that resolving a URL of a site this process does not hold is one round trip: the page trees the path can
// lead to (outline-trees.ts), without their Documents, and the site's live redirects unless this process holds
// them as of the site's current stamp (kept under it, as resolve.ts keeps those it reads itself: a later path
// of the site that shows no page finds them held).
import { tableRow, type Db } from '../db/client.js';
import { siteRedirects } from '../db/schema/index.js';
import { keepTreesAlong, treesAlong } from '../published/outline-trees.js';
import { heldStructure, type FoundSite, type SiteAlong } from '../published/site-data.js';
import { heldRedirectsStamp, keepRedirects } from './resolve.js';

/**
 * What to read with the site at whose home the path `segments` starts (a share-link key included), given the
 * site this process last found there (`known`).
 */
export function resolutionAlong(known: FoundSite | undefined, segments: string[]): SiteAlong {
  const trees = treesAlong(known && heldStructure(known), segments);
  const redirectsStamp = (known && heldRedirectsStamp(known.site.id)) ?? '';
  return {
    name: `${trees.name}_redirects`,
    column: (first) => `json_build_object('trees', ${trees.column(first)}, 'redirects',
        CASE WHEN f.served_stamp IS DISTINCT FROM $${first + trees.params.length}::text THEN
          (SELECT coalesce(json_agg(r ORDER BY r.created_at DESC), '[]') FROM site_redirects r WHERE r.site_id = f.id AND NOT r.draft) END)`,
    params: [...trees.params, redirectsStamp],
  };
}

/** Keeps the trees and the redirects read along with the site `found` (nothing when no statement was sent). */
export async function takeAlong(db: Db, found: FoundSite, along: unknown): Promise<void> {
  if (along == null) return;
  const { trees, redirects } = along as { trees: unknown; redirects: Record<string, unknown>[] | null };
  await keepTreesAlong(db, trees);
  if (redirects) keepRedirects(found, redirects.map((row) => tableRow(siteRedirects, row)));
}
