// The content of a change request as its reads show it: its latest revision, with where its pages open in the
// app. The tree, file and page reads attach the change request's row and its revision to their grant's
// statement (attached-reads.ts), so that each is one round trip.
import type { SpaceGrant } from '../auth/access.js';
import { fileLinks } from '../content/file-links.js';
import type { ShownDocuments } from '../content/page-documents-attached.js';
import { attachedRevision, changeRequestKey, changeRequestRevisionAttached } from '../content/revision-attached.js';
import { loadRevision, type LoadOptions } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, rowsOf, type AttachedRead } from '../db/attached-select.js';
import { changeRequestNotFound, changeRequestSelect } from './change-requests.store.js';

const ROW = 'change_request_row';

/**
 * The change request `ref` of the space and its revision, as `changeRequestContent` reads them, with the
 * Documents of the page a page read shows (`shown`).
 */
export function changeRequestContentAttached(ctx: Ctx, spaceId: string, ref: string, shown?: ShownDocuments): AttachedRead {
  const changeRequest = changeRequestSelect(ctx, spaceId, ref);
  return attachAll('change_request_content', attachSelect(ROW, changeRequest), changeRequestRevisionAttached(spaceId, ref, changeRequest, shown));
}

/** The latest revision of the change request `ref` of the grant's space, with where its pages open in the app; throws NotFound. */
export async function changeRequestContent(ctx: Ctx, grant: SpaceGrant, ref: string, options: LoadOptions = {}) {
  const [cr] = await rowsOf(grant.attached, ROW, changeRequestSelect(ctx, grant.row.id, ref));
  if (!cr) throw changeRequestNotFound(ref);
  const revision = await loadRevision(ctx.db, cr.revisionId, grant.row.createdAt, options, attachedRevision(grant, changeRequestKey(grant.row.id, ref)));
  return { where: { spaceId: grant.row.id, appBase: `/s/${grant.row.id}/~/changes/${cr.number}`, links: await fileLinks(ctx, grant.row.id) }, revision, cr };
}
