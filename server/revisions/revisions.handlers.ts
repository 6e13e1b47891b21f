// The reads a docs renderer makes (docs/headless-reads.md): any revision of a space by id, pages by id or
// path, their documents, files and reusable contents, and documents by id (computed ones: computed-content/).
import type { revisionOperations } from '../../contract/revisions.js';
import { parseDocumentId } from '../content/document-ids.js';
import { findFile, findPage, gitBlobsOf, pageOfFiles, toFile, toPageTree, toReusableContent, toRevision } from '../content/revision-view.js';
import { hydratePage, hydrateSubtree } from '../content/content-documents.js';
import { spaceContent } from '../content/space-content.js';
import { attachedRevision } from '../content/revision-attached.js';
import { NotFound } from '../errors.js';
import type { AppHandlers } from '../handler-types.js';
import { documentShape } from './document-options.js';
import { published } from '../content/markdown-document.js';
import { findPageByPath, findReusableContent, reusableDocument } from './page-lookup.js';
import { readPage, readPageDocument } from './page-read.js';
import { spaceRevision } from './space-revision.js';

// Every read here shows at most one page's content (and its subpages'): the revision is read without its
// Documents, and the page's are loaded (content-documents.ts).
const LIGHT = { documents: false };
// A document read shows no Git metadata: a cached revision is then read with no query at all.
const DOCUMENT = { documents: false, git: false };

export const revisionHandlers = {
  async getRevisionById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    return { status: 200, body: toRevision(ctx, where, revision, query.metadata) };
  },
  async listPagesInRevisionById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    return { status: 200, body: { pages: toPageTree(ctx, where, revision.content, { git: gitBlobsOf(revision, query.metadata), revisionId: revision.id }) } };
  },
  async getPageInRevisionById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    const page = await hydrateSubtree(ctx.db, revision.content, findPage(revision.content, params.pageId));
    const shape = await documentShape(ctx, grant, revision.content, query, { revision: params.revisionId, shown: 'id', page: params.pageId });
    return { status: 200, body: readPage(ctx, where, revision, page, query, shape) };
  },
  async getPageDocumentInRevisionById({ grant, params, query }, ctx) {
    const { revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, DOCUMENT, attachedRevision(grant));
    const page = await hydratePage(ctx.db, revision.content, findPage(revision.content, params.pageId));
    return { status: 200, body: readPageDocument(page, await documentShape(ctx, grant, revision.content, query, { revision: params.revisionId, shown: 'id', page: params.pageId })) };
  },
  async getPageInRevisionByPath({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    const page = await hydrateSubtree(ctx.db, revision.content, findPageByPath(revision.content, params.pagePath));
    const shape = await documentShape(ctx, grant, revision.content, query, { revision: params.revisionId, shown: 'path', page: params.pagePath });
    return { status: 200, body: readPage(ctx, where, revision, page, query, shape) };
  },
  async listFilesInRevisionById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    return { status: 200, body: pageOfFiles(revision.content, query, where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getFileInRevisionById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, LIGHT, attachedRevision(grant));
    return { status: 200, body: toFile(findFile(revision.content, params.fileId), where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getReusableContentInRevisionById({ grant, params }, ctx) {
    const { revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, DOCUMENT, attachedRevision(grant));
    return { status: 200, body: toReusableContent(revision.id, findReusableContent(revision.content, params.reusableContentId)) };
  },
  async getReusableContentDocumentInRevisionById({ grant, params, query }, ctx) {
    const { revision } = await spaceRevision(ctx, grant.row, params.revisionId, undefined, DOCUMENT, attachedRevision(grant));
    const reusable = findReusableContent(revision.content, params.reusableContentId);
    const document = reusableDocument(reusable);
    const shape = await documentShape(ctx, grant, revision.content, query, { revision: params.revisionId, shown: 'none' });
    return { status: 200, body: published(shape(document, reusable.id)) };
  },
  async getPageByPath({ grant, params, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    const page = await hydrateSubtree(ctx.db, revision.content, findPageByPath(revision.content, params.pagePath));
    const shape = await documentShape(ctx, grant, revision.content, query, { revision: null, shown: 'path', page: params.pagePath });
    return { status: 200, body: readPage(ctx, where, revision, page, query, shape) };
  },
  async getDocumentById({ grant, params }, ctx) {
    const parsed = parseDocumentId(params.documentId);
    const missing = () => new NotFound(`Document ${params.documentId} (path.documentId) not found in space ${grant.row.id}`);
    if (!parsed) throw missing();
    const { revision } = await spaceRevision(ctx, grant.row, parsed.revisionId, 'path.documentId', DOCUMENT, attachedRevision(grant)).catch((err: unknown) => {
      throw err instanceof NotFound ? missing() : err;
    });
    const found = revision.content.pages.find((p) => p.id === parsed.ownerId && p.type === 'document');
    if (found) {
      const page = await hydratePage(ctx.db, revision.content, found);
      return { status: 200, body: readPageDocument(page, (document) => document) };
    }
    const reusable = revision.content.reusableContents.find((r) => r.id === parsed.ownerId);
    if (reusable) return { status: 200, body: published(reusableDocument(reusable)) };
    throw missing();
  },
} satisfies Pick<AppHandlers, keyof typeof revisionOperations>;
