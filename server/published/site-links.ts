// Where a page's references lead on a published site, for its HTML pages and for the Markdown it gives
// agents (`<page URL>.md`): one place, so both write the same pages, files and spaces.
import type { StoredFile, StoredPage } from '../content/revision-content.js';
import { conditionHolds, type Visitor } from '../conditions/evaluate.js';
import { joinPath, variantPath } from './navigation.js';
import type { SiteStructure, SpaceTree } from './site-data.js';
import { FILES_SEGMENT } from './site-files.js';

/** A space's URL on this site (`base`: the site's home), when it publishes it in a site space the reader sees. */
export function spaceHrefOn(structure: SiteStructure, visitor: Visitor, base: string): (spaceId: string) => string | undefined {
  return (spaceId) => {
    const entry = structure.siteSpaces.find((e) => e.space.id === spaceId && conditionHolds(e.row.condition, visitor));
    const section = entry && structure.items.find((i) => i.id === entry.row.sectionId);
    return entry ? `${base}/${joinPath(variantPath(section, entry))}` : undefined;
  };
}

/**
 * The URLs of a site space's pages and files (`variantBase`: the site space's URL, no trailing slash): a
 * page at its path below it, followed by `suffix(page)` (the agents' `.md`), a file at its stable URL.
 */
export function siteRefUrls(tree: SpaceTree, variantBase: string, suffix: (page: StoredPage) => string = () => '') {
  const byId = new Map(tree.pages.map((p) => [p.page.id, p]));
  return {
    page: (page: StoredPage) => `${variantBase}/${joinPath(byId.get(page.id)?.path ?? tree.refs.pathOf(page))}${suffix(page)}`,
    file: (file: StoredFile) => `${variantBase}/${FILES_SEGMENT}/${encodeURIComponent(file.id)}/${encodeURIComponent(file.name)}`,
  };
}
