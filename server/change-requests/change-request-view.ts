// The API form of a change request row.
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import type { changeRequests, users } from '../db/schema/index.js';
import { toUser } from '../users/users.store.js';

export type ChangeRequest = components['schemas']['ChangeRequest'];
export type ChangeRequestRow = typeof changeRequests.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** The base a change request's changes are measured from: where it was last brought up to date, or created. */
export function baseRevision(row: Pick<ChangeRequestRow, 'revisionInitial' | 'revisionMergedAncestor'>): string {
  return row.revisionMergedAncestor ?? row.revisionInitial;
}

/** The API form; `spaceRevision` is the space's current revision (for `outdated`). */
export function toChangeRequest(ctx: Ctx, row: ChangeRequestRow, creator: UserRow, spaceRevision: string): ChangeRequest {
  return {
    object: 'change-request',
    id: row.id,
    number: row.number,
    status: row.status as ChangeRequest['status'],
    ...(row.subject !== null && { subject: row.subject }),
    ...(row.description != null && { description: row.description as ChangeRequest['description'] }),
    createdBy: toUser(creator, ctx.urls),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    space: row.spaceId,
    revision: row.revisionId,
    revisionInitial: row.revisionInitial,
    ...(row.revisionMergedAncestor && { revisionMergedAncestor: row.revisionMergedAncestor }),
    ...(row.revisionMerged && { revisionMerged: row.revisionMerged }),
    // Comments are not stored yet.
    comments: 0,
    // A merged change request is part of the space: it cannot fall behind any more.
    outdated: row.status !== 'merged' && baseRevision(row) !== spaceRevision,
    urls: {
      location: ctx.urls.api(`/spaces/${row.spaceId}/change-requests/${row.id}`),
      app: ctx.urls.app(`/s/${row.spaceId}/~/changes/${row.number}`),
    },
  };
}
