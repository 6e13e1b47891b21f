// The content of a change request as its reads show it: its latest revision, with where its pages open in the
// app. The tree, file and page reads (and the PDF link's) attach the change request's row and its revision to
// their grant's statement (attached-reads.ts), so that each reads in one round trip.
import type { SpaceGrant } from '../auth/access.js';
import { fileLinks } from '../content/file-links.js';
import type { ShownDocuments } from '../content/page-documents-attached.js';
import { attachedRevision, changeRequestKey, changeRequestRevisionAttached } from '../content/revision-attached.js';
import { loadRevision, type LoadOptions } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, rowsOf, type AttachedRead } from '../db/attached-select.js';
import { changeRequestNotFound, changeRequestSelect } from './change-requests.store.js';

const ROW = 'change_request_row';

/** The change request `ref` of the space, as `attachedChangeRequest` reads it. */
export const changeRequestRowAttached = (ctx: Ctx, spaceId: string, ref: string): AttachedRead => attachSelect(ROW, changeRequestSelect(ctx, spaceId, ref));

/**
 * The change request `ref` of the space and its revision, as `changeRequestContent` reads them, with the
 * Documents of the page a page read shows (`shown`).
 */
export function changeRequestContentAttached(ctx: Ctx, spaceId: string, ref: string, shown?: ShownDocuments): AttachedRead {
  const revision = changeRequestRevisionAttached(spaceId, ref, changeRequestSelect(ctx, spaceId, ref), shown);
  return attachAll('change_request_content', changeRequestRowAttached(ctx, spaceId, ref), revision);
}

/** The change request `ref` of the grant's space, from the grant's statement when it came with it; throws NotFound. */
export async function attachedChangeRequest(ctx: Ctx, grant: SpaceGrant, ref: string) {
  const [cr] = await rowsOf(grant.attached, ROW, changeRequestSelect(ctx, grant.row.id, ref));
  if (!cr) throw changeRequestNotFound(ref);
  return cr;
}

/** The revision `cr` has, from the grant's statement when it came with it (`options`: revisions.store.ts `loadRevision`). */
export function changeRequestRevision(ctx: Ctx, grant: SpaceGrant, ref: string, cr: { revisionId: string }, options: LoadOptions = {}) {
  return loadRevision(ctx.db, cr.revisionId, grant.row.createdAt, options, attachedRevision(grant, changeRequestKey(grant.row.id, ref)));
}

/** The latest revision of the change request `ref` of the grant's space, with where its pages open in the app; throws NotFound. */
export async function changeRequestContent(ctx: Ctx, grant: SpaceGrant, ref: string, options: LoadOptions = {}) {
  const cr = await attachedChangeRequest(ctx, grant, ref);
  const revision = await changeRequestRevision(ctx, grant, ref, cr, options);
  return { where: { spaceId: grant.row.id, appBase: `/s/${grant.row.id}/~/changes/${cr.number}`, links: await fileLinks(ctx, grant.row.id) }, revision, cr };
}
