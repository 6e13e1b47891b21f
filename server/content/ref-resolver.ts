// References of a revision's pages, resolved against that revision: what a `ref` (or a link target written
// as a URL) stands for, and how each place that shows content writes it. One resolver serves the `markdown`
// format (relative `.md` paths, as GitBook's Git Sync writes), the published site (its own page and file
// URLs) and the link checker (what resolves to nothing is broken), so they all agree.
import type { ContentRefShape } from '../../contract/document.js';
import type { ElsewhereTargets } from './elsewhere-refs.js';
import { defaultRefs, readId, refId, type ContentRefValue, type MarkdownRefs } from './markdown-refs.js';
import { pagesById, type PagesById } from './page-index.js';
import { pagePath, type RevisionContent, type StoredFile, type StoredPage } from './revision-content.js';

/** What a reference resolves to in a revision: a page (with an anchor), a file, another place, or nothing. */
export type Resolved =
  | { kind: 'page'; page: StoredPage; anchor?: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'file'; file: StoredFile }
  | { kind: 'external'; url: string }
  | { kind: 'elsewhere'; ref: ContentRefShape }
  | { kind: 'missing'; ref: ContentRefShape };

const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/** Resolves `path` (relative to the folder `base`) to a normalized page path, without `.md` or `README`. */
function normalizePath(path: string, base: string): string {
  const segments = path.startsWith('/') ? [] : base.split('/').filter(Boolean);
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  let joined = segments.join('/').replace(/\.md$/i, '');
  if (/(^|\/)README$/i.test(joined)) joined = joined.replace(/\/?README$/i, '');
  return decodeURIComponent(joined);
}

export class RefResolver {
  // Built on first use: a batch writing Markdown without relative links never pays for the page paths.
  private idMap?: PagesById;
  private pathMap?: Map<string, StoredPage>;
  private parentSet?: Set<string>;
  private fileMap?: Map<string, StoredFile>;
  private readonly paths = new Map<string, string>();

  constructor(readonly content: RevisionContent) {}

  private get byId(): PagesById {
    return (this.idMap ??= pagesById(this.content.pages));
  }

  private get byPath(): Map<string, StoredPage> {
    return (this.pathMap ??= new Map(this.content.pages.map((p) => [this.pathOf(p), p])));
  }

  private get parents(): Set<string> {
    return (this.parentSet ??= new Set(this.content.pages.flatMap((p) => (p.parent ? [p.parent] : []))));
  }

  private get files(): Map<string, StoredFile> {
    return (this.fileMap ??= new Map(this.content.files.map((f) => [f.id, f])));
  }

  /** The path of a page from the space root (slugs joined by `/`). */
  pathOf(page: StoredPage): string {
    let path = this.paths.get(page.id);
    if (path === undefined) {
      path = pagePath(this.byId, page);
      this.paths.set(page.id, path);
    }
    return path;
  }

  page(id: string): StoredPage | undefined {
    return this.byId.get(id);
  }

  file(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  /** What a link target written as a URL stands for, from the page `from`. */
  resolveUrl(url: string, from: StoredPage | undefined): Resolved {
    const id = readId(url);
    if (id) return this.resolve(id, from);
    if (hasScheme(url)) return { kind: 'external', url };
    const hash = url.indexOf('#');
    const path = hash < 0 ? url : url.slice(0, hash);
    const anchor = hash < 0 ? undefined : url.slice(hash + 1);
    if (path === '') return { kind: 'anchor', anchor: anchor ?? '' };
    const folder = from ? this.pathOf(from).split('/').slice(0, -1).join('/') : '';
    let normalized: string;
    try {
      normalized = normalizePath(path, folder);
    } catch {
      return { kind: 'missing', ref: { kind: 'url', url } };
    }
    const page = this.byPath.get(normalized);
    if (page) return { kind: 'page', page, ...(anchor && { anchor }) };
    // Git Sync's folder of a page with subpages: `guide/README.md`, or the folder itself.
    const name = normalized.split('/').pop();
    const file = this.content.files.find((f) => f.name === name);
    if (file) return { kind: 'file', file };
    return { kind: 'missing', ref: { kind: 'url', url } };
  }

  /** What a reference stands for, from the page `from`. */
  resolve(ref: ContentRefValue, from: StoredPage | undefined): Resolved {
    if (!ref) return { kind: 'missing', ref: { kind: 'url', url: '' } };
    switch (ref.kind) {
      case 'url':
        return this.resolveUrl(ref.url, from);
      case 'page': {
        if (ref.space !== undefined) return { kind: 'elsewhere', ref };
        const page = this.byId.get(ref.page);
        return page ? { kind: 'page', page } : { kind: 'missing', ref };
      }
      case 'anchor': {
        if (ref.space !== undefined) return { kind: 'elsewhere', ref };
        if (ref.page === undefined) return { kind: 'anchor', anchor: ref.anchor };
        const page = this.byId.get(ref.page);
        return page ? { kind: 'page', page, anchor: ref.anchor } : { kind: 'missing', ref };
      }
      case 'file': {
        if (ref.space !== undefined) return { kind: 'elsewhere', ref };
        const file = this.files.get(ref.file);
        return file ? { kind: 'file', file } : { kind: 'missing', ref };
      }
      default:
        return { kind: 'elsewhere', ref };
    }
  }

  /** The relative path Git Sync writes from `from` to `page`: `page.md`, or `folder/README.md` for a page with subpages. */
  relativePath(from: StoredPage | undefined, page: StoredPage): string {
    const target = this.pathOf(page);
    const file = this.parents.has(page.id) ? `${target}/README.md` : `${target}.md`;
    const fromFolder = from ? this.pathOf(from).split('/').slice(0, -1) : [];
    const parts = file.split('/');
    let common = 0;
    while (common < fromFolder.length && common < parts.length - 1 && fromFolder[common] === parts[common]) common++;
    return [...fromFolder.slice(common).map(() => '..'), ...parts.slice(common)].map(encodeURIComponent).join('/');
  }

  /**
   * References as the published site writes them from the page `from`: pages and anchors as the site's
   * page URLs, files as the site's stable file URLs, other URLs as they are, spaces and users as `elsewhere`
   * says (elsewhere-refs.ts: a space's URL and title, a user's name). A reference that resolves to nothing
   * here (a missing page, an unknown space or user) is written as its text, not as a link that leads nowhere.
   */
  siteRefs(from: StoredPage, site: { page(page: StoredPage): string; file(file: StoredFile): string }, elsewhere?: ElsewhereTargets): MarkdownRefs {
    const markdown = this.markdownRefs(from);
    const write = (ref: ContentRefValue): string => {
      const resolved = this.resolve(ref, from);
      switch (resolved.kind) {
        case 'page':
          return `${site.page(resolved.page)}${resolved.anchor ? `#${encodeURIComponent(resolved.anchor)}` : ''}`;
        case 'anchor':
          return `#${encodeURIComponent(resolved.anchor)}`;
        case 'file':
          return site.file(resolved.file);
        case 'external':
          return resolved.url;
        case 'elsewhere':
          return resolved.ref.kind === 'space' ? (elsewhere?.spaces.get(resolved.ref.space)?.url ?? '') : '';
        default:
          return '';
      }
    };
    const label = (ref: ContentRefValue): string => {
      // An id says nothing to a reader: what is not known here is named by its kind.
      if (ref?.kind === 'space') return elsewhere?.spaces.get(ref.space)?.title ?? 'unknown space';
      if (ref?.kind === 'user') return elsewhere?.users.get(ref.user)?.displayName ?? 'unknown user';
      return markdown.label(ref);
    };
    return { write, read: markdown.read, label, text: (ref) => (write(ref) === '' ? label(ref) : undefined) };
  }

  /**
   * References as the `markdown` format of the page `from` writes and reads them: pages and anchors as
   * relative `.md` paths, files as `.gitbook/assets/<name>` from the space root (as Git Sync writes
   * them); read back to the same references. What resolves to nothing keeps its id.
   */
  markdownRefs(from: StoredPage | undefined): MarkdownRefs {
    const depth = from ? this.pathOf(from).split('/').length - 1 : 0;
    const assets = `${'../'.repeat(depth)}.gitbook/assets/`;
    return {
      write: (ref) => {
        const resolved = this.resolve(ref, from);
        if (resolved.kind === 'page') return `${this.relativePath(from, resolved.page)}${resolved.anchor ? `#${resolved.anchor}` : ''}`;
        if (resolved.kind === 'file' && ref?.kind === 'file') return `${assets}${encodeURIComponent(resolved.file.name)}`;
        return refId(ref);
      },
      read: (url) => {
        const id = readId(url);
        if (id) return id;
        if (url.startsWith(assets) || url.includes('.gitbook/assets/')) {
          let name: string;
          try {
            name = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
          } catch {
            return { kind: 'url', url };
          }
          const file = this.content.files.find((f) => f.name === name);
          if (file) return { kind: 'file', file: file.id };
        }
        const resolved = this.resolveUrl(url, from);
        if (resolved.kind === 'page') return resolved.anchor ? { kind: 'anchor', anchor: resolved.anchor, page: resolved.page.id } : { kind: 'page', page: resolved.page.id };
        return { kind: 'url', url };
      },
      label: (ref) => {
        const resolved = this.resolve(ref, from);
        if (resolved.kind === 'page') return resolved.page.title;
        if (resolved.kind === 'file') return resolved.file.name;
        return defaultRefs.label(ref);
      },
    };
  }
}
