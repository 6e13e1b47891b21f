// Where each page and file of a space goes in the repository. A page's path derives from the slugs of its
// ancestors and its own (`parent/child.md`; a page with subpages is `slug/README.md`, its subpages in
// `slug/`); the space's first page is the readme (`structure.readme`); a group is a folder (`slug/`) that
// its pages go in; a file is `.gitbook/assets/<name>`. A page or file keeps the path it was last read from
// or written to while that path still says its slug (or name), so a repository's own layout survives an
// export; a slug changed in the space moves the file. Names taken (case-insensitively, as some file
// systems compare) get a suffix, `slug-2.md`, `image (1).png`; the page's slug then goes in front matter.
// A reusable content is `.gitbook/includes/<slug of its title>.md`, keeping the path it had while it is free.
import { slugify } from '../../content/apply-changes.js';
import { childrenOf, type RevisionContent, type StoredPage } from '../../content/revision-content.js';
import { CONFIG_FILE } from './config.js';
import { basename, below, dirname, joinPath } from './paths.js';
import { RepositoryFormatError, type RepositoryStructure } from './types.js';

export const ASSETS_DIR = '.gitbook/assets';
export const INCLUDES_DIR = '.gitbook/includes';

/** A slug as it reads from a file name: itself when it is one, slugified otherwise. */
export function slugOfName(name: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(name) ? name : slugify(name);
}

const isReadme = (path: string) => basename(path).toLowerCase() === 'readme.md';

/**
 * The slug a page file's path says (the docs root's readme says none: undefined). `path` is relative to
 * the docs root.
 */
export function slugOfPath(path: string, readme: string): string | undefined {
  if (path === readme) return undefined;
  if (isReadme(path)) {
    const folder = dirname(path);
    return folder === '' ? undefined : slugOfName(basename(folder));
  }
  return slugOfName(basename(path).replace(/\.md$/i, ''));
}

/** A slug as one path segment: no separators or control characters, not hidden, not empty. */
function segmentOf(slug: string): string {
  const cleaned = slug.replace(/[/\\\u0000-\u001f\u007f]/g, '-').replace(/^\.+/, '');
  return cleaned === '' ? 'page' : cleaned;
}

/** A file name as one path segment under the assets folder. */
function fileSegmentOf(name: string): string {
  const cleaned = name.replace(/[/\\\u0000-\u001f\u007f]/g, '-').replace(/^\.+/, '');
  return cleaned === '' ? 'file' : cleaned;
}

/** `name (n).ext` for the n-th duplicate, as GitBook names a second upload of the same name. */
function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

export interface Layout {
  /** Page id → the page's file from the repository root (a group: its folder, ending in `/`; a link page: none). */
  pages: Map<string, string>;
  /** File id → its asset path from the repository root. */
  files: Map<string, string>;
  /** Reusable content id → its include file from the repository root. */
  reusables: Map<string, string>;
  /** The first document page, written to the readme. */
  readmePage?: string;
}

/** The paths of a space's pages and files in the docs root `docsRoot` (from the repository root). */
export function layoutOf(content: RevisionContent, docsRoot: string, structure: RepositoryStructure, previousPaths?: ReadonlyMap<string, string>): Layout {
  const pages = new Map<string, string>();
  const files = new Map<string, string>();
  const taken = new Set<string>([joinPath(docsRoot, CONFIG_FILE).toLowerCase(), joinPath(docsRoot, structure.summary).toLowerCase(), joinPath(docsRoot, structure.readme).toLowerCase()]);
  const takenFolders = new Set<string>();
  const reserved = (path: string) => {
    const rel = below(docsRoot, path);
    return rel === undefined || rel.toLowerCase().startsWith('.gitbook/');
  };
  const free = (path: string) => !taken.has(path.toLowerCase()) && !reserved(path);
  const claim = (path: string) => taken.add(path.toLowerCase());

  // The readme is the first document page in the order of the table of contents.
  let readmePage: StoredPage | undefined;
  const findFirst = (parent: string | null): void => {
    for (const p of childrenOf(content, parent)) {
      if (readmePage) return;
      if (p.type === 'document') readmePage = p;
      else findFirst(p.id);
    }
  };
  findFirst(null);

  // Pages in tree order; a page's subpages go in the folder its own path gives.
  const folderOf = new Map<string, string>();
  const place = (page: StoredPage, folder: string, depth: number) => {
    if (depth > 64) throw new RepositoryFormatError('', `page "${page.title}" (${page.id}) is nested too deep to write`);
    const children = childrenOf(content, page.id);
    const segment = segmentOf(page.slug);
    let path: string;
    if (page.type === 'link') {
      // A link page is a SUMMARY.md entry only: no file; its subpages stand in its siblings' folder.
      folderOf.set(page.id, folder);
      for (const child of children) place(child, folder, depth + 1);
      return;
    }
    if (page.type === 'group') {
      if (page.parent !== null) throw new RepositoryFormatError(joinPath(docsRoot, structure.summary), `group "${page.title}" (${page.id}) is not at the top of the table of contents, where SUMMARY.md can write groups`);
      const previous = previousPaths?.get(page.id);
      const rel = previous?.endsWith('/') ? below(docsRoot, previous.slice(0, -1)) : undefined;
      if (rel !== undefined && rel !== '' && !rel.includes('/') && slugOfName(rel) === page.slug && !takenFolders.has(rel.toLowerCase()) && !reserved(previous!.slice(0, -1))) path = rel;
      else {
        path = segment;
        for (let n = 2; takenFolders.has(path.toLowerCase()) || reserved(joinPath(docsRoot, path)); n++) path = `${segment}-${n}`;
      }
      takenFolders.add(path.toLowerCase());
      const full = joinPath(docsRoot, path);
      pages.set(page.id, `${full}/`);
      folderOf.set(page.id, full);
    } else {
      const previous = previousPaths?.get(page.id);
      if (page === readmePage) path = joinPath(docsRoot, structure.readme);
      else if (previous !== undefined && /\.md$/i.test(previous) && free(previous) && below(docsRoot, previous) !== undefined && slugOfPath(below(docsRoot, previous)!, structure.readme) === page.slug) path = previous;
      else {
        const make = (s: string) => joinPath(folder, children.length > 0 ? `${s}/README.md` : `${s}.md`);
        path = make(segment);
        for (let n = 2; !free(path) || (children.length === 0 && isReadme(path)); n++) path = make(`${segment}-${n}`);
      }
      claim(path);
      pages.set(page.id, path);
      const childFolder = page === readmePage ? joinPath(dirname(path), segment) : isReadme(path) ? dirname(path) : path.replace(/\.md$/i, '');
      folderOf.set(page.id, childFolder);
    }
    for (const child of children) place(child, folderOf.get(page.id)!, depth + 1);
  };
  for (const page of childrenOf(content, null)) place(page, docsRoot, 0);

  const assets = joinPath(docsRoot, ASSETS_DIR);
  for (const file of content.files) {
    const name = fileSegmentOf(file.name);
    const previous = previousPaths?.get(file.id);
    let path: string;
    if (previous !== undefined && dirname(previous) === assets && basename(previous) === name && !taken.has(previous.toLowerCase())) path = previous;
    else {
      path = joinPath(assets, name);
      for (let n = 1; taken.has(path.toLowerCase()); n++) path = joinPath(assets, numberedName(name, n));
    }
    claim(path);
    files.set(file.id, path);
  }
  const includes = joinPath(docsRoot, INCLUDES_DIR);
  const reusables = new Map<string, string>();
  for (const reusable of content.reusableContents) {
    const previous = previousPaths?.get(reusable.id);
    let path: string;
    if (previous !== undefined && dirname(previous) === includes && /\.md$/i.test(previous) && !taken.has(previous.toLowerCase())) path = previous;
    else {
      const segment = segmentOf(slugify(reusable.title) || 'include');
      path = joinPath(includes, `${segment}.md`);
      for (let n = 2; taken.has(path.toLowerCase()); n++) path = joinPath(includes, `${segment}-${n}.md`);
    }
    claim(path);
    reusables.set(reusable.id, path);
  }
  return { pages, files, reusables, ...(readmePage && { readmePage: readmePage.id }) };
}
