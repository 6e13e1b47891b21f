// A page as the page reads by id or by path answer it (revision by id, current revision by path): the page
// with its children (revision-view.ts, shared with getPageById), its content in the requested format,
// shaped as the read asks (reusable contents expanded, expressions evaluated: document-options.ts).
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { documentToMarkdown, published, type PublishedDocument } from '../content/markdown-document.js';
import { defaultRefs } from '../content/markdown-refs.js';
import { pageDocument, pageMarkdown } from '../content/page-content.js';
import { RefResolver } from '../content/ref-resolver.js';
import type { StoredPage } from '../content/revision-content.js';
import { gitBlobsOf, markdownOfPage, toPage, type ContentLocation } from '../content/revision-view.js';
import type { StoredRevision } from '../content/revisions.store.js';
import { NotFound } from '../errors.js';
import { shapes, type DocumentQuery, type DocumentShape } from './document-options.js';

type RevisionPage = components['schemas']['RevisionPage'];

export interface PageReadQuery extends DocumentQuery {
  format?: 'document' | 'markdown';
  /** `false` omits the Git metadata (`git`) of the page and its subpages. */
  metadata?: boolean;
  'format.markdown.refs'?: 'relative' | 'stable';
}

/** The page of the revision, as a page read answers it for `query`, its document given its `shape` (document-options.ts). */
export function readPage(ctx: Ctx, where: ContentLocation, revision: StoredRevision, page: StoredPage, query: PageReadQuery, shape: DocumentShape): RevisionPage {
  const view = toPage(ctx, where, revision.content, page, { children: true, revisionId: revision.id, git: gitBlobsOf(revision, query.metadata) });
  if ((query.format ?? 'document') === 'document') return { ...view, document: published(shape(pageDocument(page))) };
  const stable = query['format.markdown.refs'] === 'stable';
  const refs = stable ? defaultRefs : new RefResolver(revision.content).markdownRefs(page);
  let markdown: string;
  if (shapes(shape)) markdown = documentToMarkdown(shape(pageDocument(page)), refs);
  else if (stable) markdown = pageMarkdown(page, defaultRefs, `${revision.id}\u0000${page.id}\u0000stable`);
  else markdown = markdownOfPage(revision.content, page, revision.id);
  return { ...view, markdown };
}

/** The document of a page (not a group) of the revision, shaped by the read's query. */
export function readPageDocument(page: StoredPage, shape: DocumentShape): PublishedDocument {
  if (page.type === 'group') throw new NotFound(`Page ${page.id} (path.pageId) is a group: it has no document`);
  return published(shape(pageDocument(page)));
}
