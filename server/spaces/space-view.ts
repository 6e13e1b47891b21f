import type { components } from '../../generated/types.js';
import type { SpaceRow } from '../auth/access.js';
import { asDefaultLevel, spacePermissions, type Role } from '../auth/roles.js';
import type { SpaceCounts } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { asRecord, toGitSyncState } from '../git-sync/sync-record.js';

export type Space = components['schemas']['Space'];
export type { SpaceRow };

/**
 * The API form of a space row with its counters (a list selects them with `spaceCounts`, one space
 * reads them with its grant), and permissions for a caller holding `role` on it.
 */
export function toSpace(ctx: Ctx, row: SpaceRow & SpaceCounts, role: Role | null): Space {
  const gitSync = asRecord(row.gitSync);
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
    ...(gitSync && { gitSync: toGitSyncState(gitSync) }),
    permissions: lockedPermissions(withGitSync(spacePermissions(role), gitSync !== undefined), row.editMode),
  };
}

/** `triggerGitSync` needs a Git Sync on the space as well as the role: there is nothing to trigger otherwise. */
function withGitSync<P extends { triggerGitSync: boolean }>(permissions: P, configured: boolean): P {
  return configured ? permissions : { ...permissions, triggerGitSync: false };
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
