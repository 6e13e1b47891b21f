// The pages a computed revision answers (getComputedRevision), from the pages a source gives in GitBook's
// `InputPage` form (the built-in OpenAPI source, or an integration's script): each gets its id (its own, or
// one made from the seed and its place, so the same seed and source give the same ids), its slug (its own,
// or made from its title; unique among its siblings), its path, and for a page computed in turn its
// `computedSeed` (made from the seed and its id). A document page's `urls.app` is where the app would show it
// in the space.
import { createHash } from 'node:crypto';
import { publishedPageLayout } from '../../contract/page-layout.js';
import type { components } from '../../generated/types.js';
import { slugify } from '../content/apply-changes.js';

type RevisionPage = components['schemas']['RevisionPage'];
type ComputedSource = NonNullable<RevisionPage['computed']>;
type ContentRef = NonNullable<RevisionPage['target']>;

/** A page as a source gives it (GitBook's InputPage, read). */
export type InputPage = {
  id?: string;
  title: string;
  emoji?: string;
  icon?: string;
} & (
  | { type: 'document'; slug?: string; description?: string; computed?: ComputedSource; pages?: InputPage[] }
  | { type: 'group'; slug?: string; pages: InputPage[] }
  | { type: 'link'; target: ContentRef }
  | { type: 'computed'; computed: ComputedSource }
);

/** An id made from the seed and a place: letters and digits only, as GitBook's input page ids. */
export function computedId(seed: string, place: string): string {
  return createHash('sha256').update(`${seed}\u0000${place}`).digest('hex').slice(0, 20);
}

/** The slug, or the first of `-2`, `-3`… after it that no sibling has. */
function freeSlug(wanted: string, taken: Set<string>): string {
  let slug = wanted;
  for (let n = 2; taken.has(slug); n++) slug = `${wanted}-${n}`;
  taken.add(slug);
  return slug;
}

type AppUrl = (path: string) => string;

function toPage(page: InputPage, seed: string, place: string, parentPath: string, taken: Set<string>, app: AppUrl): RevisionPage {
  const id = page.id ?? computedId(seed, place);
  const base = { id, title: page.title, ...(page.emoji && { emoji: page.emoji }), ...(page.icon && { icon: page.icon }) };
  const located = (slug: string | undefined) => {
    const free = freeSlug(slug ?? slugify(page.title), taken);
    return { slug: free, path: parentPath ? `${parentPath}/${free}` : free };
  };
  switch (page.type) {
    case 'document': {
      const where = located(page.slug);
      return {
        ...base,
        kind: 'sheet',
        type: 'document',
        urls: { app: app(where.path) },
        ...where,
        ...(page.description !== undefined && { description: page.description }),
        ...(page.computed && { computed: page.computed, computedSeed: computedId(seed, `${id}\u0000seed`) }),
        layout: publishedPageLayout,
        tags: [],
        pages: children(page.pages ?? [], seed, place, where.path, app),
      };
    }
    case 'group': {
      const where = located(page.slug);
      return { ...base, kind: 'group', type: 'group', ...where, pages: children(page.pages, seed, place, where.path, app) };
    }
    case 'link':
      return { ...base, kind: 'link', type: 'link', target: page.target };
    case 'computed':
      return { ...base, type: 'computed', ...located(undefined), computed: page.computed, computedSeed: computedId(seed, `${id}\u0000seed`) };
  }
}

function children(pages: InputPage[], seed: string, place: string, parentPath: string, app: AppUrl): RevisionPage[] {
  const taken = new Set<string>();
  return pages.map((page, i) => toPage(page, seed, `${place}/${i}`, parentPath, taken, app));
}

/** The revision pages of the source's pages, in order; `app` makes the app's URL of a page's path. */
export function computedPages(pages: InputPage[], seed: string, app: AppUrl): RevisionPage[] {
  return children(pages, seed, '', '', app);
}
