// The API form of a change request row.
import { upgradeDocument } from '../content/document-upgrade.js';
import type { Document } from '../content/markdown-document.js';
import { sql } from 'drizzle-orm';
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

/**
 * The number of open comments of each change request, as a field of a select over `change_requests`
 * (the outer column written qualified, as Drizzle leaves a single-table select's columns unqualified).
 */
export function openCommentsField() {
  return sql<number>`(SELECT count(*) FROM comments c WHERE c.change_request_id = "change_requests"."id" AND c.status = 'open')`.mapWith(Number);
}

/**
 * The API form; `spaceRevision` is the space's current revision (for `outdated`), `comments` its open
 * comments, `mayMerge` the caller's `permissions.merge` (merge-check.ts; left out when not given).
 */
export function toChangeRequest(
  ctx: Ctx,
  row: ChangeRequestRow,
  creator: UserRow,
  spaceRevision: string,
  comments: number,
  mayMerge?: boolean,
): ChangeRequest {
  return {
    object: 'change-request',
    id: row.id,
    number: row.number,
    status: row.status as ChangeRequest['status'],
    // No subject yet is GitBook's empty subject.
    subject: row.subject ?? '',
    ...(row.description != null && { description: upgradeDocument(row.description as Document) as unknown as ChangeRequest['description'] }),
    createdBy: toUser(creator, ctx.urls),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    space: row.spaceId,
    revision: row.revisionId,
    revisionInitial: row.revisionInitial,
    ...(row.revisionMergedAncestor && { revisionMergedAncestor: row.revisionMergedAncestor }),
    ...(row.revisionMerged && { revisionMerged: row.revisionMerged }),
    comments,
    // A merged change request is part of the space: it cannot fall behind any more.
    outdated: row.status !== 'merged' && baseRevision(row) !== spaceRevision,
    ...(row.conversationsIssuesClusterId && { conversationsIssuesCluster: row.conversationsIssuesClusterId }),
    ...(mayMerge !== undefined && { permissions: { merge: mayMerge } }),
    urls: {
      location: ctx.urls.api(`/spaces/${row.spaceId}/change-requests/${row.id}`),
      app: ctx.urls.app(`/s/${row.spaceId}/~/changes/${row.number}`),
    },
  };
}
