// What the link lists of a space's current content read in the statement of the space's grant
// (server/auth/attached-read.ts): the revision, the open change requests whose broken links they count, and
// the spaces and users the links of both name (elsewhere-attached.ts).
import type { AttachedReadOf } from '../auth/attached-read.js';
import { attachAll, attachSelect, embedded } from '../db/attached-select.js';
import { elsewhereRead } from './elsewhere-attached.js';
import { currentRevisionAttached } from './revision-attached.js';
import { openChangeRequestRevisionsSelect } from './space-content.js';

/** listSpaceLinks and listSpacePageLinks (the links of the page `{pageId}` only, in both). */
export const spaceLinksAttached: AttachedReadOf = (params, ctx, query) => {
  const open = openChangeRequestRevisionsSelect(ctx, params.spaceId);
  const openIds = embedded(open);
  // The space's current revision and theirs.
  const listed = { ...openIds, hash: `current_${openIds.hash}`, sql: (first: number) => `SELECT s.revision_id UNION ALL ${openIds.sql(first)}` };
  return attachAll(
    'space_links',
    currentRevisionAttached(params, ctx, query)!,
    attachSelect('open_change_requests', open),
    elsewhereRead(listed, params.pageId),
  );
};
