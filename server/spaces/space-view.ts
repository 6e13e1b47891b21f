import type { components } from '../../generated/types.js';
import type { SpaceRow } from '../auth/access.js';
import { asDefaultLevel, spacePermissions, type Role } from '../auth/roles.js';
import type { SpaceCounts } from '../auth/access.js';
import type { Ctx } from '../context.js';

export type Space = components['schemas']['Space'];
export type { SpaceRow };

/**
 * The API form of a space row with its counters (a list selects them with `spaceCountFields`, one space
 * reads them with its grant), and permissions for a caller holding `role` on it.
 */
export function toSpace(ctx: Ctx, row: SpaceRow & SpaceCounts, role: Role | null): Space {
  return {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Space['visibility'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.deletedAt && { deletedAt: row.deletedAt.toISOString() }),
    editMode: row.editMode as Space['editMode'],
    mergeRules: row.mergeRules as Space['mergeRules'],
    organization: row.organizationId,
    ...(row.parentId && { parent: row.parentId }),
    ...(row.language && { language: row.language as Space['language'] }),
    revision: row.revisionId,
    defaultLevel: asDefaultLevel(row.defaultLevel),
    comments: row.comments,
    changeRequests: row.changeRequests,
    changeRequestsOpen: row.changeRequestsOpen,
    changeRequestsDraft: row.changeRequestsDraft,
    urls: {
      location: ctx.urls.api(`/spaces/${row.id}`),
      app: ctx.urls.app(`/s/${row.id}`),
    },
    permissions: lockedPermissions(spacePermissions(role), row.editMode),
  };
}

/**
 * The caller's permissions on a space in `editMode`: a locked space refuses every change of its content
 * (content/locked.ts) whatever the role, so `edit`, `merge` and `triggerGitSync` are false while it is
 * locked; the admin still may unlock it (`admin` stays).
 */
export function lockedPermissions<P extends { edit: boolean; merge: boolean; triggerGitSync: boolean }>(permissions: P, editMode: string): P {
  if (editMode !== 'locked') return permissions;
  return { ...permissions, edit: false, merge: false, triggerGitSync: false };
}
