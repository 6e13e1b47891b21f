// A revision of a space by its id: the space's current one (which may have no row yet: the empty
// revision), or any row of content_revisions written for this space (earlier current revisions, change
// requests' revisions). A revision of another space is not found, whatever the caller may read there. A site
// token's reader reads it without the pages the visitor may not see (headless/reader-content.ts).
import { and, eq } from 'drizzle-orm';
import type { SpaceRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { fileLinks } from '../content/file-links.js';
import type { ContentLocation } from '../content/revision-view.js';
import { loadRevision, type StoredRevision } from '../content/revisions.store.js';
import type { RevisionContent } from '../content/revision-content.js';
import { contentRevisions } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { forReader } from '../headless/reader-content.js';

/** The revision `revisionId` of the space, with where its pages open; NotFound names `at`. */
export async function spaceRevision(ctx: Ctx, space: SpaceRow, revisionId: string, at = 'path.revisionId'): Promise<{ where: ContentLocation; revision: StoredRevision }> {
  let revision: StoredRevision;
  if (revisionId === space.revisionId) {
    revision = await loadRevision(ctx.db, revisionId, space.createdAt);
  } else {
    const [row] = await ctx.db
      .select()
      .from(contentRevisions)
      .where(and(eq(contentRevisions.id, revisionId), eq(contentRevisions.spaceId, space.id)));
    if (!row) throw new NotFound(`Revision ${revisionId} (${at}) not found in space ${space.id}`);
    revision = { id: row.id, parents: row.parents, type: row.type as StoredRevision['type'], createdAt: row.createdAt, content: row.content as RevisionContent };
  }
  return { where: { spaceId: space.id, appBase: `/s/${space.id}`, links: await fileLinks(ctx, space.id) }, revision: forReader(ctx, revision) };
}
