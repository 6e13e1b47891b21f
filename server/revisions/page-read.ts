// A page as the page reads by id or by path answer it (revision by id, current revision by path): the page
// with its children (revision-view.ts, shared with getPageById), its content in the requested format,
// with reusable contents expanded when asked.
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { documentToMarkdown, type Document } from '../content/markdown-document.js';
import { defaultRefs } from '../content/markdown-refs.js';
import { pageDocument, pageMarkdown } from '../content/page-content.js';
import { RefResolver } from '../content/ref-resolver.js';
import type { StoredPage } from '../content/revision-content.js';
import { gitBlobsOf, markdownOfPage, toPage, type ContentLocation } from '../content/revision-view.js';
import type { StoredRevision } from '../content/revisions.store.js';
import { NotFound } from '../errors.js';
import { dereferenceReusableContents, readDocumentQuery, type DocumentQuery } from './document-options.js';

type RevisionPage = components['schemas']['RevisionPage'];

export interface PageReadQuery extends DocumentQuery {
  format?: 'document' | 'markdown';
  /** `false` omits the Git metadata (`git`) of the page and its subpages. */
  metadata?: boolean;
  'format.markdown.refs'?: 'relative' | 'stable';
}

/** The document of a page of the revision, with reusable contents expanded when `dereference`. */
function documentOf(revision: StoredRevision, page: StoredPage, dereference: boolean): Document {
  const document = pageDocument(page);
  return dereference ? dereferenceReusableContents(document, revision.content) : document;
}

/** The page of the revision, as a page read answers it for `query`. */
export function readPage(ctx: Ctx, where: ContentLocation, revision: StoredRevision, page: StoredPage, query: PageReadQuery): RevisionPage {
  const { dereference } = readDocumentQuery(query);
  const view = toPage(ctx, where, revision.content, page, { children: true, revisionId: revision.id, git: gitBlobsOf(revision, query.metadata) });
  if ((query.format ?? 'document') === 'document') return { ...view, document: documentOf(revision, page, dereference) };
  const stable = query['format.markdown.refs'] === 'stable';
  const refs = stable ? defaultRefs : new RefResolver(revision.content).markdownRefs(page);
  let markdown: string;
  if (dereference) markdown = documentToMarkdown(documentOf(revision, page, true), refs);
  else if (stable) markdown = pageMarkdown(page, defaultRefs, `${revision.id}\u0000${page.id}\u0000stable`);
  else markdown = markdownOfPage(revision.content, page, revision.id);
  return { ...view, markdown };
}

/** The document of a page (not a group) of the revision, for `query`. */
export function readPageDocument(revision: StoredRevision, page: StoredPage, query: DocumentQuery): Document {
  const { dereference } = readDocumentQuery(query);
  if (page.type === 'group') throw new NotFound(`Page ${page.id} (path.pageId) is a group: it has no document`);
  return documentOf(revision, page, dereference);
}
