// What the reads of a change request's content read in the statement of the space's grant
// (server/auth/attached-read.ts): the change request of the path and its latest revision (revision-attached.ts),
// and for its links the spaces and users they name (elsewhere-attached.ts), so that each is one round trip.
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { elsewhereRead } from '../content/elsewhere-attached.js';
import { attachedRevision, selectedRevisionRead } from '../content/revision-attached.js';
import type { PrefetchedRevision } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, embedded, rowsOf } from '../db/attached-select.js';
import { changeRequests } from '../db/schema/index.js';
import type { ChangeRequestRow } from './change-request-view.js';
import { changeRequestNotFound, changeRequestSelect, refCondition } from './change-requests.store.js';

/** The revision each change request had when last read here: the one to say is held, if still cached. */
const lastRead = new LRUCache<string, string>({ max: 10_000 });
const keyOf = (spaceId: string, ref: string) => `${spaceId}\u0001${ref}`;

/** The select of the latest revision's id of the change request `ref` of the space. */
const revisionIdSelect = (ctx: Ctx, spaceId: string, ref: string) =>
  ctx.db.select({ id: changeRequests.revisionId }).from(changeRequests).where(refCondition(spaceId, ref));

/** The change request `{changeRequestId}` of the path and its latest revision, with its `git`. */
const contentReads = (ctx: Ctx, params: Record<string, string>) => [
  attachSelect('change_request_row', changeRequestSelect(ctx, params.spaceId, params.changeRequestId)),
  selectedRevisionRead(
    'change_request_revision',
    embedded(revisionIdSelect(ctx, params.spaceId, params.changeRequestId)),
    lastRead.get(keyOf(params.spaceId, params.changeRequestId)),
    true,
  ),
];

/** A read of the change request's content. */
export const changeRequestContentAttached: AttachedReadOf = (params, ctx) => attachAll('change_request_content', ...contentReads(ctx, params));

/** A read of the links of its page `{pageId}`: the content, and the spaces and users that page names. */
export const changeRequestLinksAttached: AttachedReadOf = (params, ctx) =>
  attachAll(
    'change_request_links',
    ...contentReads(ctx, params),
    elsewhereRead(embedded(revisionIdSelect(ctx, params.spaceId, params.changeRequestId)), params.pageId),
  );

/**
 * The change request `ref` of the grant's space (from the grant's statement when it came with it; else read
 * now) and what the statement read of its revision (for revisions.store.ts `loadRevision`); throws NotFound.
 */
export async function changeRequestOfGrant(ctx: Ctx, grant: SpaceGrant, ref: string): Promise<{ cr: ChangeRequestRow; revision?: PrefetchedRevision }> {
  const [cr] = await rowsOf(grant.attached, 'change_request_row', changeRequestSelect(ctx, grant.row.id, ref));
  if (!cr) throw changeRequestNotFound(ref);
  const revision = attachedRevision(grant);
  if (revision?.exists) lastRead.set(keyOf(grant.row.id, ref), revision.id);
  return { cr, revision };
}
