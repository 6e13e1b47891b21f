// What a reader of a published site sees and where each thing is: the sections and site spaces their
// claims allow (through the stored conditions), the section and site space a path names, and the pages of a
// space they may read. Pure functions of what site-data.ts read.
import type { StoredPage } from '../content/revision-content.js';
import type { ItemRow, SiteRow } from '../sites/site-view.js';
import { conditionHolds, type Visitor } from '../conditions/evaluate.js';
import type { SiteStructure, SpaceTree, TreePage } from './site-data.js';

type Entry = SiteStructure['siteSpaces'][number];

export interface Navigation {
  /** Visible sections in navigation order (groups flattened); empty for a site without sections. */
  sections: ItemRow[];
  section?: ItemRow;
  /** The visible site spaces of the section (or of the root), the variants a reader switches between. */
  variants: Entry[];
  variant?: Entry;
  /** The path segments after the section and site space: the page path. */
  rest: string[];
}

/** Items depth first, parents before their children; hidden groups hide what they hold. */
function visibleSections(items: ItemRow[], visitor: Visitor): ItemRow[] {
  const children = new Map<string | null, ItemRow[]>();
  for (const item of items) children.set(item.parentId, [...(children.get(item.parentId) ?? []), item]);
  const out: ItemRow[] = [];
  const visit = (parent: string | null) => {
    for (const item of children.get(parent) ?? []) {
      if (item.kind === 'group') visit(item.id);
      else if (conditionHolds(item.condition, visitor)) out.push(item);
    }
  };
  visit(null);
  return out;
}

/** The segment of a path under which a section or a site space is served. */
export function sectionSegment(section: ItemRow): string {
  return section.path ?? '';
}

/**
 * Where `segments` lead: a section named by the first segment (else the default one), then a site space of it
 * named by the next (else its default), the rest being the page path. Nothing the visitor may not see is found.
 */
export function navigate(site: SiteRow, structure: SiteStructure, visitor: Visitor, segments: string[]): Navigation {
  const sections = visibleSections(structure.items, visitor);
  let rest = segments;
  let section: ItemRow | undefined;
  if (sections.length) {
    section = sections.find((s) => sectionSegment(s) !== '' && s.path === rest[0]);
    if (section) rest = rest.slice(1);
    // A site space at the root beside the sections (added before the site's first section) is served at its path.
    else if (!structure.siteSpaces.some((e) => e.row.sectionId === null && e.row.path === rest[0] && conditionHolds(e.row.condition, visitor))) {
      section = sections.find((s) => s.id === site.defaultSectionId) ?? sections[0];
    }
  }
  const sectionId = section?.id ?? null;
  const variants = structure.siteSpaces.filter((e) => e.row.sectionId === sectionId && conditionHolds(e.row.condition, visitor));
  let variant = variants.find((v) => v.row.path === rest[0]);
  if (variant) rest = rest.slice(1);
  else {
    const defaultId = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
    variant = variants.find((v) => v.row.id === defaultId) ?? variants[0];
  }
  return { sections, section, variants, variant, rest };
}

/**
 * Every place of the site the visitor may reach, each with its site spaces: the root's (when the site has no
 * sections, or site spaces at its root beside them), then each section's. For the sitemap and llms.txt.
 */
export function placesOf(site: SiteRow, structure: SiteStructure, visitor: Visitor): Navigation[] {
  const sections = visibleSections(structure.items, visitor);
  if (!sections.length) return [navigate(site, structure, visitor, [])];
  const root = structure.siteSpaces.find((e) => e.row.sectionId === null && conditionHolds(e.row.condition, visitor));
  const places = sections.map((s) => navigate(site, structure, visitor, [sectionSegment(s)]));
  return root ? [navigate(site, structure, visitor, [root.row.path]), ...places] : places;
}

/** The URL path (under the site's base) of a site space: its section's path, then its own. */
export function variantPath(section: ItemRow | undefined, variant: Entry): string {
  return [section ? sectionSegment(section) : '', variant.row.path].filter(Boolean).join('/');
}

/** The pages of the tree the visitor may read: a page whose condition fails takes its children with it. */
export function readablePages(tree: SpaceTree, visitor: Visitor): TreePage[] {
  const refused = new Set<string>();
  return tree.pages.filter(({ page }) => {
    if ((page.parent && refused.has(page.parent)) || !conditionHolds(page.condition, visitor)) {
      refused.add(page.id);
      return false;
    }
    return true;
  });
}

/** The pages with content, in reading order, as the sidebar lists them (hidden pages aside). */
export function readingOrder(pages: TreePage[]): TreePage[] {
  const hiddenUnder = new Set<string>();
  return pages.filter(({ page }) => {
    if (page.hidden || (page.parent && hiddenUnder.has(page.parent))) {
      hiddenUnder.add(page.id);
      return false;
    }
    return page.type === 'document';
  });
}

/** Whether search engines may index the page (the site's visibility decides first). */
export function pageIndexable(page: StoredPage): boolean {
  return !page.noIndex && !page.noRobotsIndex;
}

/** A URL path of the given parts, each segment escaped (empty parts left out). */
export function joinPath(...parts: string[]): string {
  return parts.filter(Boolean).map((p) => p.split('/').map(encodeURIComponent).join('/')).join('/');
}
