import type { changeRequestContentOperations } from '../../contract/change-request-content.js';
import { findFile, findPage, gitBlobsOf, pageOfFiles, toFile, toPage, toPageTree, toRevision } from '../content/revision-view.js';
import { backlinkList, linkList, resolverFor } from '../content/link-lists.js';
import { hydrateSubtree } from '../content/content-documents.js';
import type { AppHandlers } from '../handler-types.js';
import { checkElsewhereLinks } from '../content/elsewhere-refs.js';
import { attachedElsewhere } from '../content/elsewhere-attached.js';
import { changeRequestContent } from './change-request-content.js';

// The tree, file and one-page reads skip the Documents they do not show (content-documents.ts).
const LIGHT = { documents: false };

export const changeRequestContentHandlers = {
  async getRevisionOfChangeRequestById({ grant, params, query }, ctx) {
    const { where, revision } = await changeRequestContent(ctx, grant, params.changeRequestId, LIGHT);
    return { status: 200, body: toRevision(ctx, where, revision, query.metadata) };
  },
  async listPagesInChangeRequest({ grant, params, query }, ctx) {
    const { where, revision } = await changeRequestContent(ctx, grant, params.changeRequestId, LIGHT);
    return { status: 200, body: { pages: toPageTree(ctx, where, revision.content, { git: gitBlobsOf(revision, query.metadata), revisionId: revision.id }) } };
  },
  async listFilesInChangeRequestById({ grant, params, query }, ctx) {
    const { where, revision } = await changeRequestContent(ctx, grant, params.changeRequestId, LIGHT);
    return { status: 200, body: pageOfFiles(revision.content, query, where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getFileInChangeRequestById({ grant, params, query }, ctx) {
    const { where, revision } = await changeRequestContent(ctx, grant, params.changeRequestId, LIGHT);
    return { status: 200, body: toFile(findFile(revision.content, params.fileId), where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getPageInChangeRequestById({ grant, params, query }, ctx) {
    const { where, revision } = await changeRequestContent(ctx, grant, params.changeRequestId, LIGHT);
    const page = await hydrateSubtree(ctx.db, revision.content, findPage(revision.content, params.pageId));
    return { status: 200, body: toPage(ctx, where, revision.content, page, { format: query.format ?? 'document', children: true, revisionId: revision.id, git: gitBlobsOf(revision, query.metadata) }) };
  },
  async listChangeRequestPageLinks({ grant, params, query }, ctx) {
    const { revision } = await changeRequestContent(ctx, grant, params.changeRequestId);
    const links = await checkElsewhereLinks(
      ctx,
      grant.row.organizationId,
      resolverFor(ctx, revision.content).linksOf(findPage(revision.content, params.pageId)),
      attachedElsewhere(grant.attached),
    );
    // In a change request, the broken links "in the change request" are those of this very list.
    return { status: 200, body: linkList(links, query, links.filter((l) => l.status === 'broken').length) };
  },
  async listChangeRequestFileBacklinks({ grant, params, query }, ctx) {
    const { revision } = await changeRequestContent(ctx, grant, params.changeRequestId);
    const file = findFile(revision.content, params.fileId);
    const where = { organizationId: grant.row.organizationId, spaceId: grant.row.id, revisionId: revision.id };
    return { status: 200, body: backlinkList(ctx, revision.content, where, { kind: 'file', id: file.id }, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof changeRequestContentOperations>>;
