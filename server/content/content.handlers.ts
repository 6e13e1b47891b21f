import type { contentOperations } from '../../contract/content.js';
import type { AppHandlers } from '../handler-types.js';
import { findFile, findPage, gitBlobsOf, pageOfFiles, toFile, toPage, toPageTree, toRevision } from './revision-view.js';
import { backlinkList, brokenCount, linkList, resolverFor } from './link-lists.js';
import { openChangeRequestContents, spaceContent } from './space-content.js';
import { applyTemplate } from './template-apply.js';
import { hydrateSubtree } from './content-documents.js';

// The tree, file and one-page reads read the revision without its Documents and load the page's
// (content-documents.ts); the link lists read every page's.
const LIGHT = { documents: false };

export const contentHandlers = {
  async getCurrentRevision({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT);
    return { status: 200, body: toRevision(ctx, where, revision, query.metadata) };
  },
  async applyTemplateToSpace({ grant, body }, ctx) {
    await applyTemplate(ctx, grant, body);
    return { status: 204 };
  },
  async listPages({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT);
    return { status: 200, body: { pages: toPageTree(ctx, where, revision.content, { git: gitBlobsOf(revision, query.metadata), revisionId: revision.id }) } };
  },
  async listFiles({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT);
    return { status: 200, body: pageOfFiles(revision.content, query, where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getFileById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT);
    return { status: 200, body: toFile(findFile(revision.content, params.fileId), where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getPageById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT);
    const page = findPage(revision.content, params.pageId);
    await hydrateSubtree(ctx.db, revision.content, page);
    return { status: 200, body: toPage(ctx, where, revision.content, page, { format: query.format ?? 'document', children: true, revisionId: revision.id, git: gitBlobsOf(revision, query.metadata) }) };
  },
  async listSpaceLinks({ grant, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row);
    const inChangeRequests = (await openChangeRequestContents(ctx, grant.row.id)).reduce((n, c) => n + brokenCount(ctx, c), 0);
    return { status: 200, body: linkList(resolverFor(ctx, revision.content).allLinks(), query, inChangeRequests) };
  },
  async listSpacePageLinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row);
    const page = findPage(revision.content, params.pageId);
    // The broken links of this page as the open change requests have it.
    let inChangeRequests = 0;
    for (const content of await openChangeRequestContents(ctx, grant.row.id)) {
      const own = content.pages.find((p) => p.id === page.id);
      if (own) inChangeRequests += resolverFor(ctx, content).linksOf(own).filter((l) => l.status === 'broken').length;
    }
    return { status: 200, body: linkList(resolverFor(ctx, revision.content).linksOf(page), query, inChangeRequests) };
  },
  async listSpacePageBacklinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row);
    const page = findPage(revision.content, params.pageId);
    const where = { organizationId: grant.row.organizationId, spaceId: grant.row.id, revisionId: revision.id };
    return { status: 200, body: backlinkList(ctx, revision.content, where, { kind: 'page', id: page.id }, query) };
  },
  async listSpaceFileBacklinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row);
    const file = findFile(revision.content, params.fileId);
    const where = { organizationId: grant.row.organizationId, spaceId: grant.row.id, revisionId: revision.id };
    return { status: 200, body: backlinkList(ctx, revision.content, where, { kind: 'file', id: file.id }, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof contentOperations>>;
