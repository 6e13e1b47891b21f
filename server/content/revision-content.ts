// The snapshot a revision holds. Pages are stored flat, each with its parent and an order key among its
// siblings: a page is then one record that a merge can compare, take or refuse on its own, and the tree
// is rebuilt on read (revision-view.ts).
import type { KeyTree } from './block-keys.js';
import type { Document } from './markdown-document.js';
import type { PagesById } from './page-index.js';

export type PageLinkTarget = { kind: 'url'; url: string } | { kind: 'page'; page: string } | { kind: 'anchor'; page: string; anchor: string };

export interface StoredPage {
  id: string;
  parent: string | null;
  /** Order key among the siblings (server/content/order-keys.ts). */
  position: string;
  type: 'document' | 'group' | 'link';
  /**
   * A link page's target (GitBook's `RevisionPageLink.target`): a URL, a page of the space, or an anchor
   * of one. Git Sync reads it from a SUMMARY.md entry that links outside the repository or to a page file
   * listed already or at an `#anchor`, and writes it back there.
   */
  target?: PageLinkTarget;
  title: string;
  /**
   * GitBook's page link title (`RevisionPage.linkTitle`): the title of the table of contents' entry when it
   * is not the page's, read from and written to SUMMARY.md's `[Title](page.md "Link title")` by Git Sync.
   */
  linkTitle?: string;
  slug: string;
  /** The content: a Document, every block with its key (page-content.ts; docs/content.md). */
  document?: Document;
  /**
   * The hash its Document is stored under in content_documents (content-documents.ts), on a page read
   * without its Document (revisions.store.ts `loadRevision` with `documents: false`); `hydratePages`
   * (on the caller's own page) or `hydrateIn` (on a shared one, copied) replaces it with `document`. Pages of rows written before Documents were stored apart carry `document`.
   */
  documentHash?: string;
  /** Pages stored before Documents were: their Markdown, read as their Document until their next write. */
  markdown?: string;
  /** Keys of the blocks of a legacy page's `markdown`, shaped like its document (block-keys.ts). */
  keys?: KeyTree;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  condition?: string;
  /**
   * The keys of its repository file's front matter this server has no field for (GitBook's `layout`,
   * `cover`, `tags`, …), as the YAML they were: Git Sync reads them and writes them back (git-sync/format/front-matter.ts).
   */
  frontMatter?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  /** Revisions written before files kept their bytes held the URL here; the API now signs a link on read. */
  downloadURL?: string;
  size: number;
  /** Width and height in pixels, for images (read from the bytes when the file was inserted). */
  dimensions?: { width: number; height: number };
}

/** A block of content pages can include; its blocks, when it has any (docs/headless-reads.md). */
export interface StoredReusableContent {
  id: string;
  title: string;
  document?: Document;
}

export interface RevisionContent {
  pages: StoredPage[];
  files: StoredFile[];
  variables: Record<string, string>;
  reusableContents: StoredReusableContent[];
  /**
   * The text of GitBook's `.gitbook/tags.yaml` (the space's page tags: `tag`, `label`, `icon`, `color`),
   * as Git Sync read it: this server shows no tags, and keeps the file to write it back byte for byte
   * (git-sync/format/tags.ts). Absent when the space never had one.
   */
  tagsFile?: string;
  /**
   * The space's own redirects (GitBook's `.gitbook.yaml` `redirects`, which apply to the space only): an
   * old path of the space's URL (`previous/page`) → the id of the page it leads to. Git Sync reads and
   * writes them; the published site follows them (headless/resolve.ts) where no page or site redirect is.
   */
  redirects?: Record<string, string>;
}

/** The content of a space nobody has written to yet. */
export function emptyContent(): RevisionContent {
  return { pages: [], files: [], variables: {}, reusableContents: [] };
}

/** Byte order, as order keys compare; ties (possible after a merge) fall back to the id. */
export function compareSiblings(a: StoredPage, b: StoredPage): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The children of `parent` in order. */
export function childrenOf(content: RevisionContent, parent: string | null): StoredPage[] {
  return content.pages.filter((p) => p.parent === parent).sort(compareSiblings);
}

/** The page and all the pages under it. */
export function subtreeIds(content: RevisionContent, pageId: string): Set<string> {
  const ids = new Set([pageId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of content.pages) {
      if (p.parent !== null && ids.has(p.parent) && !ids.has(p.id)) {
        ids.add(p.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** The path of a page: the slugs of its ancestors and its own, joined by `/`. */
export function pagePath(byId: PagesById, page: StoredPage): string {
  const slugs: string[] = [];
  const seen = new Set<string>();
  for (let p: StoredPage | undefined = page; p && !seen.has(p.id); p = p.parent ? byId.get(p.parent) : undefined) {
    seen.add(p.id);
    slugs.unshift(p.slug);
  }
  return slugs.join('/');
}
