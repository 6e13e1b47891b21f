// Matrix fixtures of the permission operations on spaces, collections and sites: valid bodies, and a
// grant in each list so that the fuzz test compares a real item with the documented example.
import type { MatrixFixtures, MatrixWorld } from './types.js';

const kinds = ['Space', 'Collection', 'Site'] as const;

function basePath(kind: (typeof kinds)[number], world: MatrixWorld, path: Record<string, string>): string {
  if (kind === 'Space') return `/spaces/${path.spaceId}`;
  if (kind === 'Collection') return `/collections/${path.collectionId}`;
  return `/orgs/${world.admin.organizationId}/sites/${path.siteId}`;
}

async function grantUser(kind: (typeof kinds)[number], world: MatrixWorld, path: Record<string, string>): Promise<unknown> {
  return world.admin.api.patch(`${basePath(kind, world, path)}/permissions/users/${world.members.read.userId}`, { role: 'edit' });
}

async function grantTeam(kind: (typeof kinds)[number], world: MatrixWorld, path: Record<string, string>): Promise<unknown> {
  const team = await world.admin.api.put(`/orgs/${world.admin.organizationId}/teams`, { title: 'Matrix grants list' });
  return world.admin.api.patch(`${basePath(kind, world, path)}/permissions/teams/${team.body.id}`, { role: 'comment' });
}

export const permissionFixtures: MatrixFixtures = {
  bodies: Object.fromEntries(
    kinds.flatMap((kind) => [
      [`inviteTo${kind}`, (world: MatrixWorld) => ({ role: 'read', users: [world.members.comment.userId] })],
      [`updateUserPermissionIn${kind}`, () => ({ role: 'comment' })],
      [`updateTeamPermissionIn${kind}`, () => ({ role: 'edit' })],
    ]),
  ),
  lists: Object.fromEntries(
    kinds.flatMap((kind) => [
      [`listUserPermissionsIn${kind}`, (world: MatrixWorld, path: Record<string, string>) => grantUser(kind, world, path)],
      [`listTeamPermissionsIn${kind}`, (world: MatrixWorld, path: Record<string, string>) => grantTeam(kind, world, path)],
    ]),
  ),
};
