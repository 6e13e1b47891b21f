// The current content of a space: the revision its `revision_id` points at.
import { and, eq } from 'drizzle-orm';
import type { SpaceRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { rowsOf } from '../db/attached-select.js';
import { changeRequests, contentRevisions } from '../db/schema/index.js';
import { forReader, tokenVisitor } from './reader-content.js';
import { fileLinks } from './file-links.js';
import type { RevisionContent } from './revision-content.js';
import type { ContentLocation } from './revision-view.js';
import { hydrateIn, ownPages } from './content-documents.js';
import { loadContents, loadRevision, type LoadOptions, type PrefetchedRevision, type StoredRevision } from './revisions.store.js';

/**
 * The space's current revision, with where its pages open in the app (a site token's reader: the pages it
 * may see; `options`, `prefetched`: revisions.store.ts `loadRevision`).
 */
export async function spaceContent(ctx: Ctx, space: SpaceRow, options: LoadOptions = {}, prefetched?: PrefetchedRevision): Promise<{ where: ContentLocation; revision: StoredRevision }> {
  const revision = await loadRevision(ctx.db, space.revisionId, space.createdAt, options, prefetched);
  return { where: { spaceId: space.id, appBase: `/s/${space.id}`, links: await fileLinks(ctx, space.id) }, revision: await readerView(ctx, revision) };
}

/**
 * The revision as the caller may read it (reader-content.ts `forReader`). A site token's view that
 * leaves out pages whose condition fails reads every page's Document (the files only those pages refer to
 * go with them), so a revision read without its Documents loads them first when some page has a condition.
 */
export async function readerView(ctx: Ctx, revision: StoredRevision): Promise<StoredRevision> {
  if (tokenVisitor(ctx) && revision.content.pages.some((p) => p.condition)) await hydrateIn(ctx.db, revision.content);
  return forReader(ctx, revision);
}

/** The select of the revisions of the open change requests of the space (those with a row). */
export function openChangeRequestRevisionsSelect(ctx: Ctx, spaceId: string) {
  return ctx.db
    .select({ revisionId: changeRequests.revisionId })
    .from(changeRequests)
    .innerJoin(contentRevisions, eq(contentRevisions.id, changeRequests.revisionId))
    .where(and(eq(changeRequests.spaceId, spaceId), eq(changeRequests.status, 'open')));
}

/**
 * The contents of the open change requests of the space, with their Documents (for their broken-link counts);
 * which they are from the grant's statement when it read them (`attached`: link-reads-attached.ts).
 */
export async function openChangeRequestContents(ctx: Ctx, spaceId: string, attached?: Record<string, unknown>): Promise<RevisionContent[]> {
  const rows = await rowsOf(attached, 'open_change_requests', openChangeRequestRevisionsSelect(ctx, spaceId));
  const contents = await loadContents(ctx.db, rows.map((r) => r.revisionId));
  await ownPages(ctx.db, [...contents.values()]);
  return rows.map((r) => contents.get(r.revisionId)!);
}
