// Links found in the Documents of pages (links, images, files, content references: every `data.ref`),
// resolved against the revision they are in by the same resolver the published site and the `markdown`
// format use (ref-resolver.ts), so the checker says what the site shows. A target is: an internal URL of
// the app (`in-app`); another absolute URL (`ok`: external sites are not fetched); a page, an anchor of a
// page, a file of the revision (`ok`), whether named by reference, by id or by a relative path
// (`guide/setup`, `../setup.md`, `/guide`) or a file name; a space or a user (`ok` here; the list handlers
// mark broken those that resolve to nothing, as the site sees them: elsewhere-refs.ts); a collection, … (`ok`:
// not this revision's to check); anything that resolves to nothing (`broken`). Markdown was read with
// GFM when it was written, so bare URLs are links too.
import { childrenOf } from './document-walk.js';
import type { components } from '../../generated/types.js';
import type { Block, Inline } from './markdown-document.js';
import { pageDocument } from './page-content.js';
import { RefResolver } from './ref-resolver.js';
import type { RevisionContent, StoredPage } from './revision-content.js';

type ContentRef = components['schemas']['ContentRef'];
export type LinkStatus = 'ok' | 'broken' | 'in-app';

export interface FoundLink {
  /** The page holding the link. */
  from: string;
  relation: 'link' | 'image';
  status: LinkStatus;
  target: ContentRef;
}

const imageTypes = new Set(['inline-image', 'image']);

/** Every reference of the blocks, in document order, with the relation it is in. */
function refsOf(nodes: (Block | Inline | { object: 'text' })[], out: { ref: unknown; relation: 'link' | 'image' }[]): void {
  for (const node of nodes) {
    if (node.object === 'text') continue;
    const n = node as Block | Inline;
    const ref = (n.data as { ref?: unknown } | undefined)?.ref;
    if (ref && typeof ref === 'object') out.push({ ref, relation: imageTypes.has(n.type) ? 'image' : 'link' });
    refsOf(childrenOf<Block | Inline>(n), out);
    // A table's cells of `content-ref` and `files` columns hold references too.
    if (n.type === 'table') for (const r of Object.values(((n.data as { records?: Record<string, { values?: Record<string, unknown> }> }).records ?? {}))) for (const v of Object.values(r.values ?? {})) if (v && typeof v === 'object' && 'kind' in v) out.push({ ref: v, relation: 'link' });
  }
}

/** Resolves links for one revision's content. */
export class LinkResolver {
  private readonly resolver: RefResolver;

  constructor(
    private readonly content: RevisionContent,
    private readonly appPrefix: string,
  ) {
    this.resolver = new RefResolver(content);
  }

  private check(ref: ContentRef, from: StoredPage): { status: LinkStatus; target: ContentRef } | undefined {
    const resolved = this.resolver.resolve(ref, from);
    switch (resolved.kind) {
      case 'page':
        return { status: 'ok', target: { kind: 'page', page: resolved.page.id } };
      case 'file':
        return { status: 'ok', target: { kind: 'file', file: resolved.file.id } };
      case 'anchor':
        return undefined; // an anchor in the same page
      case 'external':
        return { status: resolved.url.startsWith(this.appPrefix) ? 'in-app' : 'ok', target: { kind: 'url', url: resolved.url } };
      case 'elsewhere':
        return { status: 'ok', target: resolved.ref as ContentRef };
      case 'missing':
        return { status: 'broken', target: resolved.ref as ContentRef };
    }
  }

  /** The links of one page, in document order. */
  linksOf(page: StoredPage): FoundLink[] {
    const found: { ref: unknown; relation: 'link' | 'image' }[] = [];
    refsOf(pageDocument(page).nodes, found);
    return found.flatMap(({ ref, relation }) => {
      const checked = this.check(ref as ContentRef, page);
      return checked ? [{ from: page.id, relation, ...checked }] : [];
    });
  }

  /** The links of every page of the revision. */
  allLinks(): FoundLink[] {
    return this.content.pages.flatMap((p) => this.linksOf(p));
  }
}
