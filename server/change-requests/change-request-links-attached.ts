// What listChangeRequestPageLinks reads in the statement of the space's grant (server/auth/attached-read.ts):
// the change request of the path and its revision (change-request-content.ts), and the spaces and users the
// page's links name (content/elsewhere-attached.ts), so that it is one round trip.
import type { AttachedReadOf } from '../auth/attached-read.js';
import { elsewhereRead } from '../content/elsewhere-attached.js';
import { attachAll, embedded } from '../db/attached-select.js';
import { changeRequests } from '../db/schema/index.js';
import { changeRequestContentAttached } from './change-request-content.js';
import { refCondition } from './change-requests.store.js';

/** The change request `{changeRequestId}`, its revision, and the spaces and users its page `{pageId}` names. */
export const changeRequestLinksAttached: AttachedReadOf = (params, ctx) => {
  const revisionId = ctx.db.select({ id: changeRequests.revisionId }).from(changeRequests).where(refCondition(params.spaceId, params.changeRequestId));
  return attachAll(
    'change_request_links',
    changeRequestContentAttached(ctx, params.spaceId, params.changeRequestId),
    elsewhereRead(embedded(revisionId), params.pageId),
  );
};
