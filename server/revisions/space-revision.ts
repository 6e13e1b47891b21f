// A revision of a space by its id: the space's current one (which may have no row yet: the empty
// revision), or any row of content_revisions written for this space (earlier current revisions, change
// requests' revisions). A revision of another space is not found, whatever the caller may read there. A site
// token's reader reads it without the pages the visitor may not see (content/reader-content.ts).
import type { SpaceRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { fileLinks } from '../content/file-links.js';
import type { ContentLocation } from '../content/revision-view.js';
import { loadRevision, type LoadOptions, type PrefetchedRevision } from '../content/revisions.store.js';
import { NotFound } from '../errors.js';
import { readerView } from '../content/space-content.js';

/**
 * The revision `revisionId` of the space, with where its pages open; NotFound names `at`. `options`: a read
 * of one page passes `documents: false` and loads that page's Document (content-documents.ts);
 * `prefetched`: what the grant's statement read of it (content/revision-attached.ts).
 */
export async function spaceRevision(ctx: Ctx, space: SpaceRow, revisionId: string, at = 'path.revisionId', options: LoadOptions = {}, prefetched?: PrefetchedRevision) {
  const revision = await loadRevision(ctx.db, revisionId, space.createdAt, options, prefetched);
  if (revisionId !== space.revisionId && revision.spaceId !== space.id) throw new NotFound(`Revision ${revisionId} (${at}) not found in space ${space.id}`);
  return { where: { spaceId: space.id, appBase: `/s/${space.id}`, links: await fileLinks(ctx, space.id) }, revision: await readerView(ctx, revision) };
}
