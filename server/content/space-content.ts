// The current content of a space: the revision its `revision_id` points at.
import { and, eq } from 'drizzle-orm';
import type { SpaceRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { changeRequests, contentRevisions } from '../db/schema/index.js';
import { forReader } from '../headless/reader-content.js';
import { fileLinks } from './file-links.js';
import type { RevisionContent } from './revision-content.js';
import type { ContentLocation } from './revision-view.js';
import { loadRevision, type StoredRevision } from './revisions.store.js';

/** The space's current revision, with where its pages open in the app (a site token's reader: the pages it may see). */
export async function spaceContent(ctx: Ctx, space: SpaceRow): Promise<{ where: ContentLocation; revision: StoredRevision }> {
  const revision = await loadRevision(ctx.db, space.revisionId, space.createdAt);
  return { where: { spaceId: space.id, appBase: `/s/${space.id}`, links: await fileLinks(ctx, space.id) }, revision: forReader(ctx, revision) };
}

/** The contents of the open change requests of the space, in one query (for their broken-link counts). */
export async function openChangeRequestContents(ctx: Ctx, spaceId: string): Promise<RevisionContent[]> {
  const rows = await ctx.db
    .select({ content: contentRevisions.content })
    .from(changeRequests)
    .innerJoin(contentRevisions, eq(contentRevisions.id, changeRequests.revisionId))
    .where(and(eq(changeRequests.spaceId, spaceId), eq(changeRequests.status, 'open')));
  return rows.map((r) => r.content as RevisionContent);
}
