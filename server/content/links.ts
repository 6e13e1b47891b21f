// Links found in the Markdown of pages (parsed with mdast-util-from-markdown), resolved against the
// revision they are in. A link's target is, in order: an internal URL of the app (`in-app`); another
// absolute URL (`ok`: external sites are not fetched); a page or file id (`pag_…`, `fil_…`); a path of a
// page relative to the linking page or to the space root (`guide/setup`, `../setup.md`, `/guide`);
// the name of a file of the revision. A page or file reference that finds nothing is `broken`.
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { components } from '../../generated/types.js';
import { pagePath, type RevisionContent, type StoredPage } from './revision-content.js';
import { pageMarkdown } from './page-content.js';

type ContentRef = components['schemas']['ContentRef'];
export type LinkStatus = 'ok' | 'broken' | 'in-app';

export interface FoundLink {
  /** The page holding the link. */
  from: string;
  relation: 'link' | 'image';
  status: LinkStatus;
  target: ContentRef;
}

interface MdNode {
  type: string;
  url?: string;
  children?: MdNode[];
}

function urlsOf(node: MdNode, out: { url: string; relation: 'link' | 'image' }[]): void {
  if ((node.type === 'link' || node.type === 'image') && node.url) out.push({ url: node.url, relation: node.type });
  for (const child of node.children ?? []) urlsOf(child, out);
}

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

/** Resolves links for one revision's content. */
export class LinkResolver {
  private readonly byId: Map<string, StoredPage>;
  private readonly byPath = new Map<string, string>();

  constructor(
    private readonly content: RevisionContent,
    private readonly appPrefix: string,
  ) {
    this.byId = new Map(content.pages.map((p) => [p.id, p]));
    for (const page of content.pages) this.byPath.set(pagePath(this.byId, page), page.id);
  }

  private resolve(url: string, from: StoredPage): { status: LinkStatus; target: ContentRef } | undefined {
    if (url.startsWith(this.appPrefix)) return { status: 'in-app', target: { kind: 'url', url } };
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return { status: 'ok', target: { kind: 'url', url } };
    const [path] = url.split('#');
    if (path === '') return undefined; // an anchor in the same page
    if (/^pag_[A-Za-z0-9]+$/.test(path)) return { status: this.byId.has(path) ? 'ok' : 'broken', target: { kind: 'page', page: path } };
    if (/^fil_[A-Za-z0-9]+$/.test(path)) {
      return { status: this.content.files.some((f) => f.id === path) ? 'ok' : 'broken', target: { kind: 'file', file: path } };
    }
    const folder = pagePath(this.byId, from).split('/').slice(0, -1).join('/');
    let normalized: string;
    try {
      normalized = normalizePath(path, folder);
    } catch {
      return { status: 'broken', target: { kind: 'url', url } };
    }
    const page = this.byPath.get(normalized);
    if (page) return { status: 'ok', target: { kind: 'page', page } };
    const name = normalized.split('/').pop();
    const file = this.content.files.find((f) => f.name === name);
    if (file) return { status: 'ok', target: { kind: 'file', file: file.id } };
    return { status: 'broken', target: { kind: 'url', url } };
  }

  /** The links of one page, in document order. */
  linksOf(page: StoredPage): FoundLink[] {
    const urls: { url: string; relation: 'link' | 'image' }[] = [];
    urlsOf(fromMarkdown(pageMarkdown(page)) as MdNode, urls);
    return urls.flatMap(({ url, relation }) => {
      const resolved = this.resolve(url, page);
      return resolved ? [{ from: page.id, relation, ...resolved }] : [];
    });
  }

  /** The links of every page of the revision. */
  allLinks(): FoundLink[] {
    return this.content.pages.flatMap((p) => this.linksOf(p));
  }
}
