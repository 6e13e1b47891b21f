// The API forms of a revision, its pages and its files. Paths and the tree are derived on read from the
// flat stored pages. Git metadata (`git`) is shown from the revision's RevisionGit unless the read asks
// `metadata=false`; there are no computed pages to compute or skip (`computed=false`).
import { publishedPageLayout } from '../../contract/page-layout.js';
import { published } from './markdown-document.js';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { cutPage, decodeIdCursor, pageLimit, type PageRequest } from '../db/cursor.js';
import { NotFound } from '../errors.js';
import { holdsOnceSerialized } from '../http/json-text.js';
import { answeredDocument, pageMarkdown } from './page-content.js';
import { RefResolver } from './ref-resolver.js';
import { pagesById, positionOf, type PagesById } from './page-index.js';
import type { FileLinks } from './file-links.js';
import { documentIdOf } from './document-ids.js';
import { isReaderView } from './reader-views.js';
import { childrenOf, pagePath, type RevisionContent, type StoredFile, type StoredPage, type StoredReusableContent } from './revision-content.js';
import type { RevisionGit, StoredRevision } from './revisions.store.js';

type Revision = components['schemas']['Revision'];
type RevisionPage = components['schemas']['RevisionPage'];
type RevisionFile = components['schemas']['RevisionFile'];
type RevisionReusableContent = components['schemas']['RevisionReusableContent'];

/** Where pages of this content open in the app: the space, or one of its change requests. */
export interface ContentLocation {
  spaceId: string;
  /** App path prefix, e.g. `/s/<space>` or `/s/<space>/~/changes/3`. */
  appBase: string;
  /** Signed download links of the space's files (file-links.ts). */
  links: FileLinks;
}

export type PageFormat = 'document' | 'markdown';

/** The Git blobs of a revision's pages and files to show (undefined: none, or `metadata=false`). */
export type GitBlobs = RevisionGit['blobs'] | undefined;

/** The blobs of a revision to show: none when the read asks `metadata=false`. */
export function gitBlobsOf(revision: StoredRevision, metadata: boolean | undefined): GitBlobs {
  return metadata === false ? undefined : revision.git?.blobs;
}

interface PageOptions {
  format?: PageFormat;
  git?: GitBlobs;
  children: boolean;
  /** The revision the content is, so the page's Markdown is written once per revision (and its `documentId`). */
  revisionId?: string;
}

/** The API form of a stored page; `format` adds its content, `children` its subpages. */
export function toPage(ctx: Ctx, where: ContentLocation, content: RevisionContent, page: StoredPage, options: PageOptions): RevisionPage {
  return pageView(ctx, where, content, pagesById(content.pages), page, options);
}

/** The `markdown` format of a page of `content`: references as relative paths (ref-resolver.ts). */
export function markdownOfPage(content: RevisionContent, page: StoredPage, revisionId?: string): string {
  // A reader's view links differently to pages it does not hold: not cached under the revision's id.
  return pageMarkdown(page, new RefResolver(content).markdownRefs(page), revisionId && !isReaderView(content) ? `${revisionId}\u0000${page.id}` : undefined);
}

/** GitBook's deprecated `kind` of each page type. */
const pageKinds = { document: 'sheet', group: 'group', link: 'link' } as const;


function pageView(
  ctx: Ctx,
  where: ContentLocation,
  content: RevisionContent,
  byId: PagesById,
  page: StoredPage,
  options: PageOptions,
): RevisionPage {
  const path = pagePath(byId, page);
  const view: RevisionPage = {
    id: page.id,
    title: page.title,
    // GitBook's link title has 1 to 100 characters; a longer one read from SUMMARY.md stays in Git only.
    ...(page.linkTitle !== undefined && page.linkTitle.length >= 1 && page.linkTitle.length <= 100 && { linkTitle: page.linkTitle }),
    kind: pageKinds[page.type],
    type: page.type,
    ...(page.emoji && { emoji: page.emoji }),
    ...(page.icon && { icon: page.icon }),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    ...(options.format === 'markdown' && { markdown: markdownOfPage(content, page, options.revisionId) }),
    ...(options.format === 'document' && { document: published(answeredDocument(page)) }),
    ...(options.revisionId && page.type === 'document' && { documentId: documentIdOf(options.revisionId, page.id) }),
    urls: { app: ctx.urls.app(`${where.appBase}/${path}`) },
    slug: page.slug,
    path,
    ...(page.description !== undefined && { description: page.description }),
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
    ...(page.condition && { condition: page.condition }),
    ...(page.type === 'link' && page.target && { target: page.target }),
    ...(page.type === 'document' && { layout: publishedPageLayout, tags: [] }),
    ...(options.git?.[page.id] && { git: options.git[page.id] }),
    ...(options.children && {
      pages: childrenOf(content, page.id).map((child) => pageView(ctx, where, content, byId, child, options)),
    }),
  };
  // Its Document (and its subpages') written once when the view is the answer (json-text.ts).
  return options.format === 'document' ? holdsOnceSerialized(view) : view;
}

/**
 * The page tree: top-level pages in order, each with its subpages (without their content); `git` gives
 * their git blobs, `revisionId` their `documentId`.
 */
export function toPageTree(ctx: Ctx, where: ContentLocation, content: RevisionContent, options: { git?: GitBlobs; revisionId?: string } = {}): RevisionPage[] {
  const byId = pagesById(content.pages);
  return childrenOf(content, null).map((p) => pageView(ctx, where, content, byId, p, { children: true, git: options.git, ...(options.revisionId && { revisionId: options.revisionId }) }));
}

/** The API form of a stored reusable content of the revision `revisionId`: its blocks are its document. */
export function toReusableContent(revisionId: string, reusable: StoredReusableContent): RevisionReusableContent {
  return { id: reusable.id, title: reusable.title, document: documentIdOf(revisionId, reusable.id) };
}

/** The API form of a stored file, with a signed download link served by this server. */
export function toFile(file: StoredFile, links: FileLinks, git?: GitBlobs): RevisionFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: links.url(file),
    size: file.size,
    ...(file.dimensions && { dimensions: file.dimensions }),
    ...(git?.[file.id] && { git: git[file.id] }),
  };
}

/** The API form of a revision; `metadata: false` omits its Git metadata. */
export function toRevision(ctx: Ctx, where: ContentLocation, revision: StoredRevision, metadata?: boolean): Revision {
  const { content } = revision;
  const git = gitBlobsOf(revision, metadata);
  return {
    object: 'revision',
    id: revision.id,
    parents: revision.parents,
    pages: toPageTree(ctx, where, content, { git, revisionId: revision.id }),
    files: [...content.files].sort(byId).map((f) => toFile(f, where.links, git)),
    reusableContents: content.reusableContents.map((r) => toReusableContent(revision.id, r)),
    tags: [],
    variables: content.variables,
    createdAt: revision.createdAt.toISOString(),
    urls: { app: ctx.urls.app(where.appBase) },
    type: revision.type,
    ...(metadata !== false && revision.git?.commit && { git: revision.git.commit }),
  };
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The page `pageId` of the content; NotFound names the parameter. */
export function findPage(content: RevisionContent, pageId: string): StoredPage {
  const page = content.pages[positionOf(content.pages, pageId)];
  if (!page) throw new NotFound(`Page ${pageId} (path.pageId) not found in this content`);
  return page;
}

/** The file `fileId` of the content; NotFound names the parameter. */
export function findFile(content: RevisionContent, fileId: string): StoredFile {
  const file = content.files.find((f) => f.id === fileId);
  if (!file) throw new NotFound(`File ${fileId} (path.fileId) not found in this content`);
  return file;
}

/** One page of the content's files in id order, as a list envelope (the cursor is the last id). */
export function pageOfFiles(content: RevisionContent, request: { page?: string; limit?: number }, links: FileLinks, git?: GitBlobs) {
  return pageOfItems([...content.files].sort(byId), (f) => f.id, request, (f) => toFile(f, links, git));
}

/** Keyset pagination over an in-memory list sorted by `key`: the cursor is the last key (server/db/cursor.ts). */
export function pageOfItems<T, I>(sorted: T[], key: (item: T) => string, request: PageRequest, map: (item: T) => I) {
  const limit = pageLimit(request);
  const after = request.page === undefined ? undefined : decodeIdCursor(request.page);
  const rest = after === undefined ? sorted : sorted.filter((item) => key(item) > after);
  const page = cutPage(rest.slice(0, limit + 1), limit, (last) => [key(last)]);
  return { items: page.rows.map(map), count: sorted.length, ...(page.next && { next: page.next }) };
}
