// Finding a page of a revision by id without walking its page list. A read of one page of a large space
// is handed a copy of the cached revision's page list (revisions.store.ts: the same page objects, some
// later replaced by copies with their Documents, content-documents.ts `hydrateIn`). Where each id sits in
// the cached list is worked out once per cached list, and each copy's look-ups use it: a read then costs
// the same in a space of 50,000 pages as in one of 50. The positions are only a hint, checked on each
// look-up: a list changed since it was copied is still answered right, by a walk.
import type { StoredPage } from './revision-content.js';

/** The reads of `pages` by id that page views and reference resolution need (a `Map` serves too). */
export type PagesById = Pick<Map<string, StoredPage>, 'get'>;

/** A copy of a cached page list → that list. */
const copiedFrom = new WeakMap<StoredPage[], readonly StoredPage[]>();

/** A cached page list → where each of its pages is, by id; built on the first look-up. */
const positions = new WeakMap<readonly StoredPage[], Map<string, number>>();

/** A copy of `pages` (a cached revision's list) whose look-ups by id use the positions in `pages`. */
export function copyPageList(pages: readonly StoredPage[]): StoredPage[] {
  const copy = [...pages];
  copiedFrom.set(copy, pages);
  return copy;
}

function positionsOf(source: readonly StoredPage[]): Map<string, number> {
  let found = positions.get(source);
  if (!found) {
    found = new Map(source.map((p, i) => [p.id, i]));
    positions.set(source, found);
  }
  return found;
}

/** Where the page `id` is in `pages`; -1 when it has none. */
export function positionOf(pages: StoredPage[], id: string): number {
  const source = copiedFrom.get(pages);
  if (source) {
    const at = positionsOf(source).get(id);
    if (at !== undefined && pages[at]?.id === id) return at;
  }
  return pages.findIndex((p) => p.id === id);
}

/** `pages` by id: through the positions of the list they were copied from, or a `Map` of them. */
export function pagesById(pages: StoredPage[]): PagesById {
  if (!copiedFrom.has(pages)) return new Map(pages.map((p) => [p.id, p]));
  return {
    get: (id: string) => {
      const at = positionOf(pages, id);
      return at === -1 ? undefined : pages[at];
    },
  };
}
