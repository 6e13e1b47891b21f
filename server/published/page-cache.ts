// The answers of a published site's pages, kept so that a reader's request costs one query (the site with
// its stamp, site-data.ts) instead of reading the structure and assembling the page again. The key holds
// everything the answer depends on:
//   - the site's stamp: the site row, its sections, its site spaces with their spaces' current revisions
//     and trash state, the scripts installed on it; a merge, publishing or unpublishing, a change of
//     visibility, customization, structure or conditions each change it;
//   - where it is served (the origin and base path, which holds a share-link site's key) and the path asked;
//   - the visitor's claims, as validated against the adaptive schema: the only thing about the reader a
//     page depends on, so two readers share an answer only when they would be shown the same page.
// Who may read at all (published, share key, visitor token) is decided before the cache, on every request.
import type { SiteScript } from '../sites/site-scripts.js';
import { LRUCache } from 'lru-cache';
import type { Visitor } from '../conditions/evaluate.js';

/** The page a 200 answer shows, for the `site_view` of each reader it is served to. */
export interface ViewedPage {
  siteSpaceId: string;
  spaceId: string;
  pageId: string;
}

export type Answer = { status: number; html: string; indexable: boolean; scripts?: SiteScript[]; view?: ViewedPage } | { redirect: string; status?: number };

// Bounded by size: a page is 5-20 kB; 48 MB of them is a few thousand pages.
const answers = new LRUCache<string, Answer>({
  maxSize: 48 * 1024 * 1024,
  sizeCalculation: (answer) => ('html' in answer ? answer.html.length * 2 : answer.redirect.length * 2) + 200,
});
// Answers being made: the readers who arrive meanwhile wait for the same one instead of each making it.
const making = new Map<string, Promise<Answer>>();

export interface AnswerPlace {
  stamp: string;
  origin: string;
  base: string;
  segments: string[];
  visitor: Visitor;
}

export function answerKey(place: AnswerPlace): string {
  return [place.stamp, place.origin, place.base, place.segments.join('/'), JSON.stringify(place.visitor.claims)].join('\u0000');
}

// Answers made for a reader who found none kept or being made (a count for tests: a page built before its
// reader came is not made for it).
let madeForReaders = 0;

/** The part of `key` (made with `stamp`) that names the place and visitor, whatever the stamp. */
export function placeOfKey(key: string, stamp: string): string {
  return key.slice(stamp.length + 1);
}

/** The answer kept under `key`, or the one `make` makes (kept for the next readers unless it is a 404). */
export async function cachedAnswer(key: string, make: () => Promise<Answer>): Promise<Answer> {
  const kept = answers.get(key);
  if (kept) return kept;
  const pending = making.get(key);
  if (pending) return pending;
  madeForReaders++;
  return startMaking(key, make, () => true);
}

/**
 * Makes the answer under `key` before any reader asks (page-prebuild.ts), unless it is kept or being made:
 * readers who come meanwhile wait for it. It is kept only if `current()` still holds once it is made (the
 * site was not changed again meanwhile); the readers who waited for it get it anyway, as it is the answer of
 * the stamp they found.
 */
export function prebuildAnswer(key: string, make: () => Promise<Answer>, current: () => boolean): Promise<Answer> | undefined {
  if (answers.has(key) || making.has(key)) return undefined;
  return startMaking(key, make, current);
}

function startMaking(key: string, make: () => Promise<Answer>, current: () => boolean): Promise<Answer> {
  const pending = make()
    .then((answer) => {
      // Not the 404s: any path makes one, so keeping them would let anyone push the site's pages out.
      if ((!('status' in answer) || answer.status === 200) && current()) answers.set(key, answer);
      return answer;
    })
    .finally(() => making.delete(key));
  making.set(key, pending);
  return pending;
}

/** What tests look at: the answers made for readers so far, and whether an answer is kept under `key`. */
export const pageCacheInspection = {
  madeForReaders: () => madeForReaders,
  has: (key: string) => answers.has(key),
};
