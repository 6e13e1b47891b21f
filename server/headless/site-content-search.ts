// searchSiteContent: the search of a site as GitBook's API answers it (what its renderer's search box reads).
// The site spaces of the scope, among those a visitor may see (navigation.ts placesOf: sections and site spaces
// whose condition holds, for a site token's visitor; a member searches as a visitor without claims), are each
// searched with the space search (server/search/search.ts) at their current revision; a result is kept when its
// page is one the visitor may read (content/reader-content.ts) and not `noIndex`, as the site's own search keeps them.
// Section bodies are plain text (GitBook's renderer highlights the query in them; marks would show as `<b>`).
import type { components } from '../../generated/types.js';
import type { Visitor } from '../conditions/evaluate.js';
import type { Ctx } from '../context.js';
import { decodeIdCursor, encodeCursor, invalidCursor } from '../db/cursor.js';
import { BadRequest } from '../errors.js';
import { placesOf } from '../published/navigation.js';
import { loadStructure, spaceTree, type SiteStructure } from '../published/site-data.js';
import { searchSpace } from '../search/search.js';
import { requireSite } from '../sites/structure.js';
import { readablePages } from '../published/navigation.js';
import { tokenVisitor } from '../content/reader-content.js';

type Body = components['schemas']['SearchSiteContentRequest'];
type SpaceResult = components['schemas']['SearchOrganizationResult'];
type PageResult = components['schemas']['SearchSpaceResult'];
type Entry = SiteStructure['siteSpaces'][number];

/** The most results a site space contributes: a site search ranks within the first pages of each. */
const PER_SPACE = 100;

/** The site spaces a scope names, in search order (the current one first), among those shown to the visitor. */
function scopedEntries(places: ReturnType<typeof placesOf>, body: Body): Entry[] {
  const shown = places.flatMap((place) => place.variants);
  const defaults = places.flatMap((place) => (place.variant ? [place.variant] : []));
  const byId = (id: string | undefined) => shown.find((entry) => entry.row.id === id);
  const scope = body.scope ?? (body.mode === 'all' ? { mode: 'all' as const } : body.siteSpaceIds ? { mode: 'specific' as const, siteSpaceIds: body.siteSpaceIds } : { mode: 'default' as const, currentSiteSpace: body.siteSpaceId });
  switch (scope.mode) {
    case 'all':
      return shown;
    case 'specific':
      return shown.filter((entry) => scope.siteSpaceIds.includes(entry.row.id));
    case 'default': {
      if (scope.restrictTo && !scope.currentSiteSpace) throw new BadRequest('Invalid request: body.scope.currentSiteSpace: required with restrictTo');
      const current = byId(scope.currentSiteSpace);
      if (scope.restrictTo === 'currentSiteSpace') return current ? [current] : [];
      const others = defaults.filter((entry) => entry !== current);
      if (scope.restrictTo === 'otherSiteSpaces') return others;
      return current ? [current, ...others] : others;
    }
  }
}

/** A page of the spaces of the site matching `body.query`, each with its matching pages. */
export async function searchSite(ctx: Ctx, organizationId: string, siteId: string, body: Body, request: { page?: string; limit?: number }) {
  const site = await requireSite(ctx, organizationId, siteId);
  const visitor: Visitor = tokenVisitor(ctx) ?? { claims: {} };
  const structure = await loadStructure(ctx.db, site.id);
  const entries = scopedEntries(placesOf(site, structure, visitor), body);
  // A space shown by two site spaces of the scope is searched once.
  const seen = new Set<string>();
  const found: { space: Entry['space']; page: PageResult }[] = [];
  for (const { space } of entries) {
    if (seen.has(space.id)) continue;
    seen.add(space.id);
    const [results, tree] = await Promise.all([searchSpace(ctx, space, body.query, { limit: PER_SPACE }, { marks: false }), spaceTree(ctx.db, space)]);
    const readable = new Set(readablePages(tree, visitor).filter((p) => !p.page.noIndex).map((p) => p.page.id));
    for (const page of results.items) if (readable.has(page.id)) found.push({ space, page });
  }
  // Results are ranked (space by space, in scope order), so the cursor is a position in that order.
  let offset = 0;
  if (request.page !== undefined) {
    const key = decodeIdCursor(request.page);
    if (!/^\d{1,10}$/.test(key)) throw invalidCursor();
    offset = Number(key) + 1;
  }
  const limit = request.limit ?? 100;
  const window = found.slice(offset, offset + limit);
  const items: SpaceResult[] = [];
  for (const [i, found] of window.entries()) {
    // Ranked across the site (as the organization's search ranks across spaces): the one-based position in
    // the whole result, the score its inverse; a space scores as its best page.
    const rank = offset + i + 1;
    const page = { ...found.page, rank, score: 1 / rank };
    const last = items.at(-1);
    if (last?.id === found.space.id) last.pages.push(page);
    else items.push({ type: 'space', id: found.space.id, title: found.space.title, score: page.score, pages: [page] });
  }
  const end = offset + window.length;
  return {
    items,
    count: found.length,
    ...(end < found.length && window.length > 0 && { next: { page: encodeCursor([String(end - 1).padStart(10, '0')]) } }),
  };
}
