import type { contentOperations } from '../../contract/content.js';
import type { AppHandlers } from '../handler-types.js';
import { findFile, findPage, gitBlobsOf, pageOfFiles, toFile, toPage, toPageTree, toRevision } from './revision-view.js';
import { backlinkList, linkList, resolverFor } from './link-lists.js';
import { openChangeRequestContents, spaceContent } from './space-content.js';
import { applyTemplate } from './template-apply.js';
import { checkElsewhereLinks } from './elsewhere-refs.js';
import { documentShape } from '../revisions/document-options.js';
import { readPage } from '../revisions/page-read.js';
import { hydrateSubtree } from './content-documents.js';
import { attachedRevision } from './revision-attached.js';
import { attachedElsewhere } from './elsewhere-attached.js';

// The tree, file and one-page reads read the revision without its Documents and load the page's
// (content-documents.ts); the link lists read every page's.
const LIGHT = { documents: false };

export const contentHandlers = {
  async getCurrentRevision({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    return { status: 200, body: toRevision(ctx, where, revision, query.metadata) };
  },
  async applyTemplateToSpace({ grant, body }, ctx) {
    await applyTemplate(ctx, grant, body);
    return { status: 204 };
  },
  async listPages({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    return { status: 200, body: { pages: toPageTree(ctx, where, revision.content, { git: gitBlobsOf(revision, query.metadata), revisionId: revision.id }) } };
  },
  async listFiles({ grant, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    return { status: 200, body: pageOfFiles(revision.content, query, where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getFileById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    return { status: 200, body: toFile(findFile(revision.content, params.fileId), where.links, gitBlobsOf(revision, query.metadata)) };
  },
  async getPageById({ grant, params, query }, ctx) {
    const { where, revision } = await spaceContent(ctx, grant.row, LIGHT, attachedRevision(grant));
    const page = await hydrateSubtree(ctx.db, revision.content, findPage(revision.content, params.pageId));
    // `evaluated` asks the document as its reader sees it (revisions/document-options.ts).
    if (query.evaluated === 'true' || query.evaluated === 'deterministic-only') {
      return { status: 200, body: readPage(ctx, where, revision, page, query, await documentShape(ctx, grant, revision.content, { evaluated: query.evaluated })) };
    }
    return { status: 200, body: toPage(ctx, where, revision.content, page, { format: query.format ?? 'document', children: true, revisionId: revision.id, git: gitBlobsOf(revision, query.metadata) }) };
  },
  async listSpaceLinks({ grant, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row, {}, attachedRevision(grant));
    const own = resolverFor(ctx, revision.content).allLinks();
    const inOpen = (await openChangeRequestContents(ctx, grant.row.id, grant.attached)).flatMap((c) => resolverFor(ctx, c).allLinks());
    // One look-up of the spaces and users both name (elsewhere-refs.ts), so both count broken alike.
    const checked = await checkElsewhereLinks(ctx, grant.row.organizationId, [...own, ...inOpen], attachedElsewhere(grant.attached));
    const inChangeRequests = checked.slice(own.length).filter((l) => l.status === 'broken').length;
    return { status: 200, body: linkList(checked.slice(0, own.length), query, inChangeRequests) };
  },
  async listSpacePageLinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row, {}, attachedRevision(grant));
    const page = findPage(revision.content, params.pageId);
    // The broken links of this page as the open change requests have it, checked with its own in one look-up.
    const own = resolverFor(ctx, revision.content).linksOf(page);
    const inOpen = (await openChangeRequestContents(ctx, grant.row.id, grant.attached)).flatMap((content) => {
      const there = content.pages.find((p) => p.id === page.id);
      return there ? resolverFor(ctx, content).linksOf(there) : [];
    });
    const checked = await checkElsewhereLinks(ctx, grant.row.organizationId, [...own, ...inOpen], attachedElsewhere(grant.attached));
    const inChangeRequests = checked.slice(own.length).filter((l) => l.status === 'broken').length;
    return { status: 200, body: linkList(checked.slice(0, own.length), query, inChangeRequests) };
  },
  async listSpacePageBacklinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row, {}, attachedRevision(grant));
    const page = findPage(revision.content, params.pageId);
    const where = { organizationId: grant.row.organizationId, spaceId: grant.row.id, revisionId: revision.id };
    return { status: 200, body: backlinkList(ctx, revision.content, where, { kind: 'page', id: page.id }, query) };
  },
  async listSpaceFileBacklinks({ grant, params, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row, {}, attachedRevision(grant));
    const file = findFile(revision.content, params.fileId);
    const where = { organizationId: grant.row.organizationId, spaceId: grant.row.id, revisionId: revision.id };
    return { status: 200, body: backlinkList(ctx, revision.content, where, { kind: 'file', id: file.id }, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof contentOperations>>;
